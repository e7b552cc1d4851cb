import { describe, expect, it } from "vitest";
import { twitch } from "../src/providers/twitch.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectRefresh,
  expectSignedIn,
  expectSignInError,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
import { unsignedJwt } from "./support/id-token-signer.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token" };
const CLAIMS = {
  iss: "https://id.twitch.tv/oauth2",
  aud: CLIENT.clientId,
  sub: "713936733",
  preferred_username: "twitchdev",
  email: "dev@twitch.example",
  email_verified: true,
  picture: "https://static-cdn/p.png",
};

describe("twitch", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof twitch>[0]> = {}) =>
    twitch({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in from the ID token's claims, asked through the claims parameter (on SQLite)", async () => {
    fake.tokens = { id_token: unsignedJwt(CLAIMS) };
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    const result = await signInThrough(t, "twitch", fake, { loginHint: "twitchdev" });
    expect(result.authorize.get("scope")).toBe("user:read:email openid");
    expect(JSON.parse(result.authorize.get("claims")!)).toEqual({
      id_token: { email: null, email_verified: null, preferred_username: null, picture: null },
    });
    expectParams(result.authorize, { code_challenge: null, login_hint: null, prompt: null, nonce: null });
    expectTokenRequest(fake.last("/token"), { auth: "post", pkce: false });
    // No userinfo call: the ID token is the profile.
    expect(fake.requests.map((r) => r.path)).toEqual(["/authorize", "/token"]);
    expectSignedIn(
      result,
      { providerId: "twitch", accountId: "713936733" },
      {
        name: "twitchdev",
        email: "dev@twitch.example",
        emailVerified: true,
        image: "https://static-cdn/p.png",
      },
    );
  });

  it("configured claims replace the defaults, beside email and email_verified", async () => {
    const url = await provider({ claims: ["updated_at"] }).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(JSON.parse(url.searchParams.get("claims")!)).toEqual({
      id_token: { email: null, email_verified: null, updated_at: null },
    });
  });

  it("a token response without an ID token (or a malformed one) fails with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    for (const tokens of [{}, { id_token: "not-a-jwt" }, { id_token: "a.b_!.c" }]) {
      fake.tokens = tokens;
      await expectSignInError(t, "twitch", fake);
    }
  });

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
