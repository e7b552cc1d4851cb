import { describe, expect, it } from "vitest";
import { vk } from "../src/providers/vk.ts";
import { redirectBack, useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectProfileFailure,
  expectRefresh,
  expectSignedIn,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
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
  const fake = useFakeProvider();
  // VK ID redirects back with the device id the token request must repeat.
  fake.on("GET /authorize", redirectBack({ code: "vk-code", device_id: "device-42" }));
  fake.on("POST /oauth2/auth", () => ({
    json: {
      access_token: "access-token-1",
      refresh_token: "refresh-token-1",
      expires_in: 3600,
      user_id: 1,
    },
  }));

  const provider = (extra: Partial<Parameters<typeof vk>[0]> = {}) =>
    vk({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, the device id and a form-posted profile lookup (on SQLite)", async () => {
    fake.on("POST /oauth2/user_info", { json: { user: USER } });
    const t = await providerInstance(provider({ prompt: "login" }), { sqlite: true });
    const result = await signInThrough(t, "vk", fake, { loginHint: "ivan@example.com" });
    expectParams(result.authorize, {
      scope: "email phone",
      code_challenge_method: "S256",
      login_hint: null,
      prompt: null,
    });
    const token = fake.last("/oauth2/auth")!;
    expectTokenRequest(token, { auth: "post", pkce: true });
    expect(token.form.get("device_id")).toBe("device-42");
    expect(token.form.get("code")).toBe("vk-code");
    const info = fake.last("/oauth2/user_info")!;
    expect(info.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(info.form)).toEqual({
      access_token: "access-token-1",
      client_id: CLIENT.clientId,
    });
    expectSignedIn(
      result,
      { providerId: "vk", accountId: "1234567890" },
      {
        name: "Ivan Ivanov",
        email: "ivan@example.com",
        emailVerified: false,
        image: "https://vk/a.jpg",
      },
    );
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
    await expectProfileFailure(provider(), fake, "POST /oauth2/user_info", { json: { user: noEmail } });
    const mapped = provider({ mapProfileToUser: (p) => ({ email: `${p.user.user_id}@vk.example` }) });
    expect((await mapped.getUserInfo({ accessToken: "t" }))?.user.email).toBe("1234567890@vk.example");
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "POST /oauth2/user_info", {
      status: 401,
      json: { error: "invalid_token" },
    }));

  it("refreshes with the secret in the form", () =>
    expectRefresh(provider(), fake, { auth: "post", tokenPath: "/oauth2/auth" }));
});
