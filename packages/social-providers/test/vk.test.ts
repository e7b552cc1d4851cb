import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vk } from "../src/providers/vk.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/oauth2/auth", userInfo: "/oauth2/user_info" };
const USER = {
  user_id: "1234567890",
  first_name: "Ivan",
  last_name: "Ivanov",
  email: "ivan@example.com",
  avatar: "https://vk/a.jpg",
  sex: 2,
  birthday: "01.01.2000",
};

describe("vk", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
    // VK ID redirects back with the device id the token request must repeat.
    fake.on("GET /authorize", ({ query }) => {
      const back = new URL(query.get("redirect_uri")!);
      back.searchParams.set("code", "vk-code");
      back.searchParams.set("state", query.get("state")!);
      back.searchParams.set("device_id", "device-42");
      return { status: 302, headers: { location: back.href } };
    });
    fake.on("POST /oauth2/auth", () => ({
      json: {
        access_token: "access-token-1",
        refresh_token: "refresh-token-1",
        expires_in: 3600,
        user_id: 1,
      },
    }));
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof vk>[0]> = {}) =>
    vk({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, the device id and a form-posted profile lookup (on SQLite)", async () => {
    fake.on("POST /oauth2/user_info", { json: { user: USER } });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "vk", fake, { loginHint: "ivan@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("email phone");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/oauth2/auth")!;
      expect(token.form.get("device_id")).toBe("device-42");
      expect(token.form.get("code")).toBe("vk-code");
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      const info = fake.last("/oauth2/user_info")!;
      expect(info.headers["content-type"]).toBe("application/x-www-form-urlencoded");
      expect(Object.fromEntries(info.form)).toEqual({
        access_token: "access-token-1",
        client_id: CLIENT.clientId,
      });
      expect(result.session?.user).toMatchObject({
        name: "Ivan Ivanov",
        email: "ivan@example.com",
        emailVerified: false,
        image: "https://vk/a.jpg",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "vk", accountId: "1234567890" }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("keeps VK's extra fields on the mapped user", async () => {
    fake.on("POST /oauth2/user_info", { json: { user: USER } });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user).toMatchObject({
      first_name: "Ivan",
      last_name: "Ivanov",
      birthday: "01.01.2000",
      sex: 2,
    });
  });

  it("a profile without an email fails with unable_to_get_user_info unless mapped", async () => {
    const { email: _e, ...noEmail } = USER;
    fake.on("POST /oauth2/user_info", { json: { user: noEmail } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "vk", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    const mapped = provider({ mapProfileToUser: (p) => ({ email: `${p.user.user_id}@vk.example` }) });
    expect((await mapped.getUserInfo({ accessToken: "t" }))?.user.email).toBe("1234567890@vk.example");
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("POST /oauth2/user_info", { status: 401, json: { error: "invalid_token" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "vk", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with the secret in the form", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/oauth2/auth")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("refresh_token")).toBe("refresh-token-1");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
