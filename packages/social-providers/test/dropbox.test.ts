import { describe, expect, it } from "vitest";
import { dropbox } from "../src/providers/dropbox.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
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
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof dropbox>[0]> = {}) =>
    dropbox({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, token_access_type and a POSTed profile call (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ accessType: "offline", prompt: "login" }),
      loginHint: "franz@example.com",
      authorize: {
        scope: "account_info.read",
        token_access_type: "offline",
        code_challenge_method: "S256",
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: true },
      profile: { route: "POST /2/users/get_current_account", answer: { json: PROFILE } },
      accountId: PROFILE.account_id,
      user: {
        name: "Franz Ferdinand (Personal)",
        email: "franz@example.com",
        emailVerified: true,
        image: "https://dl-web.dropbox.com/account_photo/get/x",
      },
    });
    const me = fake.last("/2/users/get_current_account")!;
    expect(me.method).toBe("POST");
    expect(me.text).toBe("");
  });

  it("no token_access_type without accessType; an unverified email stays unverified", async () => {
    fake.on("POST /2/users/get_current_account", { json: { ...PROFILE, email_verified: false } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "dropbox", fake);
    expect(result.authorize.has("token_access_type")).toBe(false);
    expect(result.session?.user).toMatchObject({ emailVerified: false });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "POST /2/users/get_current_account", {
      status: 401,
      json: { error_summary: "invalid_access_token/" },
    }));

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
