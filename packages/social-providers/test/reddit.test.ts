import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reddit } from "../src/providers/reddit.ts";
import { BASIC_AUTH } from "./support/basic-auth.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/api/v1/me" };
const PROFILE = {
  id: "abc123",
  name: "spez",
  icon_img: "https://styles.redditmedia.com/a.png?width=256&s=xyz",
  has_verified_email: true,
  oauth_client_id: CLIENT.clientId,
  verified: true,
};

describe("reddit", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof reddit>[0]> = {}) =>
    reddit({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with duration, Basic client auth, a User-Agent and a placeholder email (on SQLite)", async () => {
    fake.on("GET /api/v1/me", { json: PROFILE });
    const t = await providerInstance(provider({ duration: "permanent", prompt: "consent" }), {
      sqlite: true,
    });
    try {
      const result = await signInThrough(t, "reddit", fake, { loginHint: "spez" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("identity");
      expect(result.authorize.get("duration")).toBe("permanent");
      for (const absent of ["code_challenge", "login_hint", "prompt"])
        expect(result.authorize.has(absent)).toBe(false);
      const token = fake.last("/token")!;
      expect(token.headers.authorization).toBe(BASIC_AUTH);
      expect(token.headers["user-agent"]).toBe("latchkey");
      expect(token.form.has("client_secret")).toBe(false);
      const me = fake.last("/api/v1/me")!;
      expect(me.headers.authorization).toBe("Bearer access-token-1");
      expect(me.headers["user-agent"]).toBe("latchkey");
      expect(result.session?.user).toMatchObject({
        name: "spez",
        email: "abc123@reddit.placeholder.invalid",
        emailVerified: false,
        image: "https://styles.redditmedia.com/a.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "reddit", accountId: "abc123" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("no duration without the option; a mapped email replaces the placeholder", async () => {
    fake.on("GET /api/v1/me", { json: { ...PROFILE, icon_img: null } });
    const mapped = provider({ mapProfileToUser: () => ({ email: "spez@example.com", emailVerified: true }) });
    const t = await providerInstance(mapped);
    const result = await signInThrough(t, "reddit", fake);
    expect(result.authorize.has("duration")).toBe(false);
    expect(result.session?.user).toMatchObject({
      email: "spez@example.com",
      emailVerified: true,
      image: null,
    });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /api/v1/me", { status: 429, text: "Too Many Requests" });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "reddit", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with Basic client auth", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.headers.authorization).toBe(BASIC_AUTH);
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.has("client_secret")).toBe(false);
  });
});
