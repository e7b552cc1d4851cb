import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notion } from "../src/providers/notion.ts";
import { BASIC_AUTH } from "./support/basic-auth.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/users/me" };
const OWNER = {
  object: "user",
  id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
  type: "person",
  name: "Avo Cado",
  avatar_url: "https://notion/a.png",
  person: { email: "avo@example.org" },
};
const BOT = { object: "user", id: "bot-1", type: "bot", bot: { owner: { type: "user", user: OWNER } } };

describe("notion", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof notion>[0]> = {}) =>
    notion({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with owner=user, login_hint and Basic client auth (on SQLite)", async () => {
    fake.on("GET /v1/users/me", { json: BOT });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "notion", fake, { loginHint: "avo@example.org" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("owner")).toBe("user");
      expect(result.authorize.get("login_hint")).toBe("avo@example.org");
      expect(result.authorize.has("scope")).toBe(false);
      expect(result.authorize.has("code_challenge")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.headers.authorization).toBe(BASIC_AUTH);
      expect(token.form.has("client_secret")).toBe(false);
      const me = fake.last("/v1/users/me")!;
      expect(me.headers.authorization).toBe("Bearer access-token-1");
      expect(me.headers["notion-version"]).toBe("2022-06-28");
      expect(result.session?.user).toMatchObject({
        name: "Avo Cado",
        email: "avo@example.org",
        emailVerified: false,
        image: "https://notion/a.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "notion", accountId: OWNER.id }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("owner=user cannot be overridden by a caller", async () => {
    const url = await provider().createAuthorizationURL({
      state: "s",
      codeVerifier: "v".repeat(43),
      redirectURI: "http://localhost:3000/cb",
      scopes: ["read"],
      additionalParams: { owner: "workspace" },
    });
    expect(url.searchParams.get("owner")).toBe("user");
    expect(url.searchParams.get("scope")).toBe("read");
  });

  it("the profile is the owner's; a bot owned by a workspace fails with unable_to_get_user_info", async () => {
    fake.on("GET /v1/users/me", { json: BOT });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.data).toEqual(OWNER);
    fake.on("GET /v1/users/me", { json: { ...BOT, bot: { owner: { type: "workspace", workspace: true } } } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "notion", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("an owner without an email ends with email_not_found; a failed call with unable_to_get_user_info", async () => {
    fake.on("GET /v1/users/me", {
      json: { ...BOT, bot: { owner: { type: "user", user: { ...OWNER, person: {} } } } },
    });
    const t = await providerInstance(provider());
    expect((await signInThrough(t, "notion", fake)).location.searchParams.get("error")).toBe(
      "email_not_found",
    );
    fake.on("GET /v1/users/me", { status: 401, json: { code: "unauthorized" } });
    expect((await signInThrough(t, "notion", fake)).location.searchParams.get("error")).toBe(
      "unable_to_get_user_info",
    );
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
