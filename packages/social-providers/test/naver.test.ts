import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { naver } from "../src/providers/naver.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/nid/me" };
const RESPONSE = {
  id: "naver-id-1",
  nickname: "nick",
  name: "홍길동",
  email: "hong@naver.com",
  profile_image: "https://n/p.png",
};

describe("naver", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof naver>[0]> = {}) =>
    naver({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in without PKCE, the secret in the form (on SQLite)", async () => {
    fake.on("GET /v1/nid/me", { json: { resultcode: "00", message: "success", response: RESPONSE } });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "naver", fake, { loginHint: "hong@naver.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("profile email");
      for (const absent of ["code_challenge", "login_hint", "prompt"])
        expect(result.authorize.has(absent)).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_id")).toBe(CLIENT.clientId);
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.has("code_verifier")).toBe(false);
      expect(fake.last("/v1/nid/me")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "홍길동",
        email: "hong@naver.com",
        emailVerified: false,
        image: "https://n/p.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "naver", accountId: "naver-id-1" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("falls back to the nickname, then an empty name", async () => {
    fake.on("GET /v1/nid/me", {
      json: { resultcode: "00", message: "success", response: { id: "1", nickname: "nick" } },
    });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("nick");
    fake.on("GET /v1/nid/me", { json: { resultcode: "00", message: "success", response: { id: "2" } } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("");
  });

  it("a 200 answer with an error result code fails with unable_to_get_user_info", async () => {
    fake.on("GET /v1/nid/me", { json: { resultcode: "024", message: "Authentication failed" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "naver", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
    fake.on("GET /v1/nid/me", { status: 500, text: "oops" });
    expect(await provider().getUserInfo({ accessToken: "t" })).toBeNull();
  });

  it("refreshes with the secret in the form", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
