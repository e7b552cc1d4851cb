import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { github } from "../src/index.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { AUTH, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/user", emails: "/user/emails" };

describe("github", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

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
    try {
      const result = await signInThrough(t, "github", fake, { loginHint: "octo@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.get("login_hint")).toBe("octo@example.com");
      expect(result.authorize.get("scope")).toBe("read:user user:email");
      const token = fake.last("/token")!;
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(fake.last("/user")!.headers["user-agent"]).toBe("latchkey");
      expect(result.session?.user).toMatchObject({
        email: "octo@example.com",
        name: "octo",
        emailVerified: true,
      });
      expect(result.accounts).toEqual([expect.objectContaining({ providerId: "github", accountId: "1234" })]);
    } finally {
      t.cleanup();
    }
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

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /user", { status: 401, json: { message: "Bad credentials" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "github", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("a 200 token answer carrying an error (GitHub's way) fails the exchange", async () => {
    fake.tokens = { access_token: undefined, error: "bad_verification_code" };
    try {
      const t = await providerInstance(provider());
      const result = await signInThrough(t, "github", fake);
      expect(result.location.searchParams.get("error")).toBeTruthy();
      expect(result.session).toBeNull();
    } finally {
      fake.tokens = {};
    }
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
