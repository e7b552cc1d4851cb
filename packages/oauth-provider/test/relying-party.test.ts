import { CookieJar } from "@latchkey/test-support";
import * as oidc from "openid-client";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveProvider, type LiveProvider } from "./live-provider.ts";

const REDIRECT = "http://127.0.0.1:1/callback";

/** A browser: fetch with a cookie jar and no automatic redirects. */
function browser() {
  const jar = new CookieJar();
  return {
    jar,
    async fetch(url: string, init: RequestInit = {}): Promise<Response> {
      const headers = new Headers(init.headers);
      const cookie = jar.header();
      if (cookie) headers.set("cookie", cookie);
      const res = await fetch(url, { ...init, headers, redirect: "manual" });
      jar.absorb(res);
      return res;
    },
  };
}

describe("relying parties against a Latchkey provider over HTTP", () => {
  let provider: LiveProvider;
  let issuer: URL;
  let registered: { client_id: string; client_secret: string };
  const user = browser();

  beforeAll(async () => {
    provider = await liveProvider({ allowDynamicClientRegistration: true });
    issuer = new URL(`${provider.origin}/api/auth`);
    // The user signs up on the provider (its own sign-in page would do this).
    const signUp = await user.fetch(`${issuer.href}/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: provider.origin },
      body: JSON.stringify({ email: "rp@example.com", password: "correct horse battery", name: "Grace Hopper" }),
    });
    expect(signUp.status).toBe(200);
    // Dynamic registration (RFC 7591) by the signed-in user, over HTTP.
    const reg = await user.fetch(`${issuer.href}/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: provider.origin },
      body: JSON.stringify({ redirect_uris: [REDIRECT], application_type: "native", client_name: "RP", grant_types: ["authorization_code", "refresh_token"] }),
    });
    expect(reg.status).toBe(201);
    registered = (await reg.json()) as typeof registered;
  });
  afterAll(() => provider.close());

  /** openid-client's configuration from the provider's discovery (EdDSA ID tokens, Basic client auth, http on loopback). */
  const discover = () =>
    oidc.discovery(issuer, registered.client_id, { id_token_signed_response_alg: "EdDSA" }, oidc.ClientSecretBasic(registered.client_secret), {
      execute: [oidc.allowInsecureRequests],
    });

  /** openid-client's configuration, a PKCE verifier and the authorization URL for `scope`. */
  async function startAuthorization(scope: string, state: string) {
    const config = await discover();
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    return { config, verifier, url };
  }

  /** Follows the provider's pages for the user: consent accepted, returns the callback URL with the code. */
  async function approve(authorizationUrl: URL): Promise<URL> {
    const first = await user.fetch(authorizationUrl.href);
    // Node's fetch sends `Sec-Fetch-Mode: cors`, so the provider answers as to a script:
    // `{ redirect: true, url }` instead of a 302 (a browser navigation gets the 302).
    expect(first.status).toBe(200);
    let location = new URL(((await first.json()) as { url: string }).url);
    if (location.pathname === "/consent") {
      const consent = await user.fetch(`${issuer.href}/oauth2/consent`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: provider.origin },
        body: JSON.stringify({ accept: true, oauth_query: location.search.slice(1) }),
      });
      expect(consent.status).toBe(200);
      location = new URL(((await consent.json()) as { url: string }).url);
    }
    return location;
  }

  it("openid-client 6: discovery, code + PKCE, ID token validation, userinfo, refresh, introspection, revocation", async () => {
    const config = await discover();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile email offline_access",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const callback = await approve(url);
    // RFC 9207: the RP checks `iss` in the authorization response.
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: issuer.href, aud: registered.client_id, nonce, acr: "0" });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, name: "Grace Hopper", email: "rp@example.com", email_verified: false });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()?.sub).toBe(claims.sub);

    expect(await oidc.tokenIntrospection(config, refreshed.access_token)).toMatchObject({ active: true, client_id: registered.client_id, sub: claims.sub });
    await oidc.tokenRevocation(config, refreshed.access_token);
    expect(await oidc.tokenIntrospection(config, refreshed.access_token)).toEqual({ active: false });
    await expect(oidc.fetchUserInfo(config, refreshed.access_token, claims.sub)).rejects.toThrow();
    // The refresh token spent by the rotation is refused, and the family with it.
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("oauth4webapi 3: discovery, code + PKCE with the iss check, ID token and userinfo", async () => {
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { [oauth.allowInsecureRequests]: true }));
    const rp: oauth.Client = { client_id: registered.client_id, id_token_signed_response_alg: "EdDSA" };
    const auth = oauth.ClientSecretBasic(registered.client_secret);
    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: rp.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid email",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      nonce,
    }).toString();
    const callback = await approve(url);
    const params = oauth.validateAuthResponse(as, rp, callback);
    const response = await oauth.authorizationCodeGrantRequest(as, rp, auth, params, REDIRECT, verifier, { [oauth.allowInsecureRequests]: true });
    const result = await oauth.processAuthorizationCodeResponse(as, rp, response, { expectedNonce: nonce, requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    const info = await oauth.processUserInfoResponse(
      as,
      rp,
      claims.sub,
      await oauth.userInfoRequest(as, rp, result.access_token, { [oauth.allowInsecureRequests]: true }),
    );
    expect(info).toEqual({ sub: claims.sub, email: "rp@example.com", email_verified: false });
  });

  it("openid-client: a signed-out user goes through the login page and back to the RP, which gets its tokens", async () => {
    const { config, verifier, url } = await startAuthorization("openid profile", "s2");
    const guest = browser();
    const first = await guest.fetch(url.href);
    const login = new URL(((await first.json()) as { url: string }).url);
    expect(login.pathname).toBe("/login");
    // The login page posts the sign-in with the signed request it received.
    const signIn = await guest.fetch(`${issuer.href}/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: provider.origin },
      body: JSON.stringify({ email: "rp@example.com", password: "correct horse battery", oauth_query: login.search.slice(1) }),
    });
    expect(signIn.status).toBe(200);
    const next = new URL(((await signIn.json()) as { url: string }).url);
    // Consent was given in this user's other browser for a wider scope set: straight to the client.
    expect(next.searchParams.get("state")).toBe("s2");
    const tokens = await oidc.authorizationCodeGrant(config, next, { pkceCodeVerifier: verifier, expectedState: "s2" });
    expect(tokens.claims()?.aud).toBe(registered.client_id);
  });

  it("openid-client: a code replayed by the RP is invalid_grant", async () => {
    const { config, verifier, url } = await startAuthorization("openid", "s");
    const callback = await approve(url);
    await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "s" });
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "s" })).rejects.toMatchObject({ error: "invalid_grant" });
  });
});
