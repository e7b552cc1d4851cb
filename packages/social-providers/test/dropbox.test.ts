import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropbox } from "../src/providers/dropbox.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/2/users/get_current_account" };
const PROFILE = {
  account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
  name: { given_name: "Franz", surname: "Ferdinand", display_name: "Franz Ferdinand (Personal)" },
  email: "franz@example.com",
  email_verified: true,
  profile_photo_url: "https://dl-web.dropbox.com/account_photo/get/x",
};

describe("dropbox", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof dropbox>[0]> = {}) =>
    dropbox({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, token_access_type and a POSTed profile call (on SQLite)", async () => {
    fake.on("POST /2/users/get_current_account", { json: PROFILE });
    const t = await providerInstance(provider({ accessType: "offline", prompt: "login" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "dropbox", fake, { loginHint: "franz@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("account_info.read");
      expect(result.authorize.get("token_access_type")).toBe("offline");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
      const me = fake.last("/2/users/get_current_account")!;
      expect(me.method).toBe("POST");
      expect(me.text).toBe("");
      expect(me.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Franz Ferdinand (Personal)",
        email: "franz@example.com",
        emailVerified: true,
        image: "https://dl-web.dropbox.com/account_photo/get/x",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "dropbox", accountId: PROFILE.account_id }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("no token_access_type without accessType; an unverified email stays unverified", async () => {
    fake.on("POST /2/users/get_current_account", { json: { ...PROFILE, email_verified: false } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "dropbox", fake);
    expect(result.authorize.has("token_access_type")).toBe(false);
    expect(result.session?.user).toMatchObject({ emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("POST /2/users/get_current_account", {
      status: 401,
      json: { error_summary: "invalid_access_token/" },
    });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "dropbox", fake);
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
