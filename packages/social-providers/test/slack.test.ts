import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slack } from "../src/providers/slack.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/api/openid.connect.userInfo" };
const PROFILE = {
  ok: true,
  sub: "U0R7JM",
  "https://slack.com/user_id": "U0R7JM",
  "https://slack.com/team_id": "T0R7GR",
  email: "krane@example.com",
  email_verified: true,
  name: "krane",
  "https://slack.com/user_image_512": "https://secure.gravatar.com/512.png",
};

describe("slack", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof slack>[0]> = {}) =>
    slack({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in without PKCE, the secret in the form (on SQLite)", async () => {
    fake.on("GET /api/openid.connect.userInfo", { json: PROFILE });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "slack", fake, { loginHint: "krane@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("openid profile email");
      for (const absent of ["code_challenge", "login_hint", "prompt"])
        expect(result.authorize.has(absent)).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.has("code_verifier")).toBe(false);
      expect(fake.last("/api/openid.connect.userInfo")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "krane",
        email: "krane@example.com",
        emailVerified: true,
        image: "https://secure.gravatar.com/512.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "slack", accountId: "U0R7JM" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("prefers picture over the 512px avatar", async () => {
    fake.on("GET /api/openid.connect.userInfo", { json: { ...PROFILE, picture: "https://slack/p.png" } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.image).toBe("https://slack/p.png");
  });

  it("Slack's 200 `ok: false` answer ends with unable_to_get_user_info", async () => {
    fake.on("GET /api/openid.connect.userInfo", { json: { ok: false, error: "invalid_auth" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "slack", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with the secret in the form", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
