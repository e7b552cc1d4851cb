import { describe, expect, it } from "vitest";
import { github } from "../src/index.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectProfileFailure,
  expectSignedIn,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
import { AUTH, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/user", emails: "/user/emails" };

describe("github", () => {
  const fake = useFakeProvider();

  const provider = () => github({ ...CLIENT, endpoints: at(fake, ENDPOINTS) });

  it("signs in with PKCE, login_hint and the primary verified email (on SQLite)", async () => {
    fake.on("GET /user", {
      json: { id: 1234, login: "octo", name: null, email: null, avatar_url: "https://a/1" },
    });
    fake.on("GET /user/emails", {
      json: [
        { email: "other@example.com", primary: false, verified: true },
        { email: "octo@example.com", primary: true, verified: true },
      ],
    });
    const t = await providerInstance(provider(), { sqlite: true });
    const result = await signInThrough(t, "github", fake, { loginHint: "octo@example.com" });
    expectParams(result.authorize, {
      code_challenge_method: "S256",
      login_hint: "octo@example.com",
      scope: "read:user user:email",
    });
    expectTokenRequest(fake.last("/token"), { auth: "post", pkce: true });
    expect(fake.last("/user")!.headers["user-agent"]).toBe("latchkey");
    expectSignedIn(
      result,
      { providerId: "github", accountId: "1234" },
      {
        email: "octo@example.com",
        name: "octo",
        emailVerified: true,
      },
    );
  });

  it("keeps the public profile email, verified only when GitHub lists it verified", async () => {
    fake.on("GET /user", {
      json: { id: 77, login: "pub", name: "Pub", email: "pub@example.com", avatar_url: "x" },
    });
    fake.on("GET /user/emails", { json: [{ email: "pub@example.com", primary: true, verified: false }] });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "github", fake);
    expect(result.session?.user).toMatchObject({
      email: "pub@example.com",
      name: "Pub",
      emailVerified: false,
    });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /user", {
      status: 401,
      json: { message: "Bad credentials" },
    }));

  it("a 200 token answer carrying an error (GitHub's way) fails the exchange", async () => {
    fake.tokens = { access_token: undefined, error: "bad_verification_code" };
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "github", fake);
    expect(result.location.searchParams.get("error")).toBeTruthy();
    expect(result.session).toBeNull();
  });

  it("a reference-style config builds the provider through the registered factory", async () => {
    const { socialProviderFactories } = await import("../src/index.ts");
    fake.on("GET /user", {
      json: { id: 5, login: "cfg", name: "Cfg", email: "cfg@example.com", avatar_url: "x" },
    });
    fake.on("GET /user/emails", { json: [{ email: "cfg@example.com", primary: true, verified: true }] });
    const t = await providerInstance(provider(), {
      plugins: [socialProviderFactories([github])],
      socialProviders: { github: { ...CLIENT, endpoints: at(fake, ENDPOINTS) } },
    });
    const result = await signInThrough(t, "github", fake);
    expect(result.session?.user).toMatchObject({ email: "cfg@example.com" });
    const res = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "github",
      idToken: { token: "x.y.z" },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "ID_TOKEN_NOT_SUPPORTED" });
  });
});
