import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "@latchkey/test-support";
import { liveProvider, localServer, type LiveProvider } from "./live-provider.ts";

const SCOPES = ["openid", "profile", "email", "offline_access", "reports:read"];
const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

async function keyPair(alg: "ES256" | "EdDSA" | "RS256", kid: string): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

/** A client assertion as RFC 7523 §3 describes it, with claims the test may change. */
function assertion(key: CryptoKey, clientId: string, aud: string, claims: Record<string, unknown> = {}, alg = "ES256", kid = "k1") {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: clientId, sub: clientId, aud, jti: crypto.randomUUID(), iat: now, exp: now + 60, ...claims })
    .setProtectedHeader({ alg, kid })
    .sign(key);
}

const form = (url: string, body: Record<string, string>) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) });

describe("private_key_jwt client authentication (RFC 7523, OIDC Core §9)", () => {
  let provider: LiveProvider;
  let jwksServer: Awaited<ReturnType<typeof localServer>>;
  let key: Awaited<ReturnType<typeof keyPair>>;
  let remoteKey: Awaited<ReturnType<typeof keyPair>>;
  let jwksFetches = 0;
  let inline: { client_id: string } & Record<string, unknown>;
  let remote: { client_id: string };

  beforeAll(async () => {
    key = await keyPair("ES256", "k1");
    remoteKey = await keyPair("EdDSA", "r1");
    jwksServer = await localServer(() => {
      jwksFetches += 1;
      return Response.json({ keys: [remoteKey.jwk] });
    });
    provider = await liveProvider(
      { scopes: SCOPES, privateHostAllowList: ["127.0.0.1"] },
      { trustedOrigins: [jwksServer.origin] },
    );
    const api = provider.auth.api as unknown as { adminCreateOAuthClient(input: { body: unknown }): Promise<Record<string, unknown>> };
    inline = (await api.adminCreateOAuthClient({
      body: {
        token_endpoint_auth_method: "private_key_jwt",
        jwks: { keys: [key.jwk] },
        grant_types: ["client_credentials"],
        client_credentials_scopes: ["reports:read"],
      },
    })) as typeof inline;
    remote = (await api.adminCreateOAuthClient({
      body: {
        token_endpoint_auth_method: "private_key_jwt",
        jwks_uri: `${jwksServer.origin}/jwks.json`,
        grant_types: ["client_credentials"],
        client_credentials_scopes: ["reports:read"],
      },
    })) as typeof remote;
  });
  afterAll(async () => {
    await provider.close();
    await jwksServer.close();
  });

  it("registers without a secret, with the key set", () => {
    expect(inline.client_secret).toBeUndefined();
    expect(inline.token_endpoint_auth_method).toBe("private_key_jwt");
    expect(inline.jwks).toEqual({ keys: [key.jwk] });
  });

  it("openid-client (PrivateKeyJwt) gets, introspects and revokes a client_credentials token over HTTP", async () => {
    const config = await oidc.discovery(new URL(provider.issuer), inline.client_id, {}, oidc.PrivateKeyJwt({ key: key.privateKey, kid: "k1" }), {
      execute: [oidc.allowInsecureRequests],
    });
    const tokens = await oidc.clientCredentialsGrant(config, { scope: "reports:read" });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("reports:read");
    const introspection = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspection.active).toBe(true);
    expect(introspection.client_id).toBe(inline.client_id);
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it("fetches a jwks_uri (allow-listed 127.0.0.1) once and caches it", async () => {
    const config = await oidc.discovery(new URL(provider.issuer), remote.client_id, {}, oidc.PrivateKeyJwt({ key: remoteKey.privateKey, kid: "r1" }), {
      execute: [oidc.allowInsecureRequests],
    });
    const before = jwksFetches;
    const first = await oidc.clientCredentialsGrant(config, { scope: "reports:read" }).catch((e: { error_description?: string }) => { throw new Error(String(e.error_description)); });
    const second = await oidc.clientCredentialsGrant(config, { scope: "reports:read" });
    expect(first.access_token).not.toBe(second.access_token);
    expect(jwksFetches - before).toBe(1);
  });

  it("openid-client (PrivateKeyJwt): authorization code + PKCE, userinfo and refresh for a signed-in user", async () => {
    const api = provider.auth.api as unknown as { adminCreateOAuthClient(input: { body: unknown }): Promise<{ client_id: string }> };
    const redirect = "http://127.0.0.1:1/callback";
    const rp = await api.adminCreateOAuthClient({
      body: {
        token_endpoint_auth_method: "private_key_jwt",
        jwks: { keys: [key.jwk] },
        redirect_uris: [redirect],
        application_type: "native",
        skip_consent: true,
        grant_types: ["authorization_code", "refresh_token"],
      },
    });
    const jar = new CookieJar();
    const browse = async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      const cookie = jar.header();
      if (cookie) headers.set("cookie", cookie);
      const res = await fetch(url, { ...init, headers, redirect: "manual" });
      jar.absorb(res);
      return res;
    };
    const signUp = await browse(`${provider.issuer}/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: provider.origin },
      body: JSON.stringify({ email: "pkjwt@example.com", password: "correct horse battery", name: "Kay Jot" }),
    });
    expect(signUp.status).toBe(200);
    const config = await oidc.discovery(new URL(provider.issuer), rp.client_id, { id_token_signed_response_alg: "EdDSA" }, oidc.PrivateKeyJwt({ key: key.privateKey, kid: "k1" }), {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope: "openid email offline_access",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state: "pk",
    });
    const answer = await browse(url.href);
    const callback = new URL(((await answer.json()) as { url: string }).url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "pk" });
    expect(tokens.claims()?.aud).toBe(rp.client_id);
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info.email).toBe("pkjwt@example.com");
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it("accepts the token endpoint URL as audience, refuses a replayed jti", async () => {
    const jwt = await assertion(key.privateKey, inline.client_id, `${provider.issuer}/oauth2/token`);
    const body = { grant_type: "client_credentials", scope: "reports:read", client_assertion_type: ASSERTION_TYPE, client_assertion: jwt };
    expect((await form(`${provider.issuer}/oauth2/token`, body)).status).toBe(200);
    const replay = await form(`${provider.issuer}/oauth2/token`, body);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: "invalid_client", error_description: "client assertion jti has already been used" });
  });

  it.each([
    ["another audience", { aud: "https://elsewhere.example/token" }, 400, "client assertion aud does not match the endpoint"],
    ["an expired assertion", { exp: Math.floor(Date.now() / 1000) - 10 }, 400, "client assertion has expired"],
    ["a lifetime over assertionMaxLifetime", { exp: Math.floor(Date.now() / 1000) + 3600 }, 400, "client assertion exp is too far in the future (max 300s)"],
    ["an old iat", { iat: Math.floor(Date.now() / 1000) - 3600 }, 400, "client assertion iat is too far in the past (max 300s)"],
    ["no jti", { jti: undefined }, 400, "client assertion must include jti claim"],
    ["another issuer", { iss: "someone-else" }, 401, "client assertion signature verification failed"],
  ])("refuses %s", async (_label, claims, status, description) => {
    const jwt = await assertion(key.privateKey, inline.client_id, provider.issuer, claims);
    const res = await form(`${provider.issuer}/oauth2/token`, { grant_type: "client_credentials", client_assertion_type: ASSERTION_TYPE, client_assertion: jwt });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: "invalid_client", error_description: description });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses an assertion signed by another key, a wrong type, a secret, and a mismatched client_id", async () => {
    const other = await keyPair("ES256", "k1");
    const url = `${provider.issuer}/oauth2/token`;
    const forged = await form(url, { grant_type: "client_credentials", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(other.privateKey, inline.client_id, provider.issuer) });
    expect(forged.status).toBe(401);
    const good = await assertion(key.privateKey, inline.client_id, provider.issuer);
    const wrongType = await form(url, { grant_type: "client_credentials", client_assertion_type: "urn:example:saml", client_assertion: good });
    expect(await wrongType.json()).toEqual({ error: "invalid_client", error_description: "unsupported client_assertion_type" });
    const withSecret = await form(url, { grant_type: "client_credentials", client_id: inline.client_id, client_secret: "guess" });
    expect(await withSecret.json()).toMatchObject({ error: "invalid_client" });
    const mismatched = await form(url, { grant_type: "client_credentials", client_id: remote.client_id, client_assertion_type: ASSERTION_TYPE, client_assertion: good });
    expect(await mismatched.json()).toEqual({ error: "invalid_client", error_description: "client_id in body does not match assertion sub/iss" });
    const garbage = await form(url, { grant_type: "client_credentials", client_assertion_type: ASSERTION_TYPE, client_assertion: "not.a.jwt" });
    expect(garbage.status).toBe(400);
    // None of these spent the good assertion.
    const used = await form(url, { grant_type: "client_credentials", client_assertion_type: ASSERTION_TYPE, client_assertion: good });
    expect(used.status).toBe(200);
  });

  it("introspection and revocation take their own URL as audience", async () => {
    const tokens = await oidc.clientCredentialsGrant(
      await oidc.discovery(new URL(provider.issuer), inline.client_id, {}, oidc.PrivateKeyJwt({ key: key.privateKey, kid: "k1" }), { execute: [oidc.allowInsecureRequests] }),
      { scope: "reports:read" },
    );
    const introspect = `${provider.issuer}/oauth2/introspect`;
    const res = await form(introspect, {
      token: tokens.access_token,
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion(key.privateKey, inline.client_id, introspect),
    });
    expect(((await res.json()) as { active: boolean }).active).toBe(true);
    const revoke = `${provider.issuer}/oauth2/revoke`;
    const revoked = await form(revoke, {
      token: tokens.access_token,
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion(key.privateKey, inline.client_id, revoke),
    });
    expect(revoked.status).toBe(200);
  });
});

describe("private_key_jwt registration", () => {
  let provider: LiveProvider;
  let signedInCookie: string;
  beforeAll(async () => {
    provider = await liveProvider({ allowDynamicClientRegistration: true, allowUnauthenticatedClientRegistration: true });
    signedInCookie = "";
  });
  afterAll(() => provider.close());

  const register = (body: Record<string, unknown>) =>
    fetch(`${provider.issuer}/oauth2/register`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signedInCookie ? { cookie: signedInCookie } : {}) },
      body: JSON.stringify({ redirect_uris: ["https://rp.example/cb"], token_endpoint_auth_method: "private_key_jwt", ...body }),
    });

  it("needs jwks or jwks_uri", async () => {
    const res = await register({});
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid_client_metadata", error_description: "private_key_jwt requires either jwks or jwks_uri" });
  });

  it("refuses private keys, symmetric keys and mismatched algorithms", async () => {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    for (const [keys, description] of [
      [[privateJwk], "jwks must contain only public asymmetric keys"],
      [[{ kty: "oct", k: "c2VjcmV0" }], "jwks must contain only public asymmetric keys"],
      [[{ ...privateJwk, d: undefined, alg: "RS256" }], "jwks key alg must be supported for private_key_jwt and compatible with its key type and signing curve"],
    ] as const) {
      const res = await register({ jwks: { keys } });
      expect(await res.json()).toEqual({ error: "invalid_client_metadata", error_description: description });
    }
  });

  it("refuses a jwks_uri on http, on a private or loopback host, or not trusted", async () => {
    for (const [uri, description] of [
      ["http://keys.example/jwks", "jwks_uri must use HTTPS"],
      ["https://127.0.0.1/jwks", "jwks_uri must not point to a private or reserved address"],
      ["https://10.0.0.8/jwks", "jwks_uri must not point to a private or reserved address"],
      ["https://[::1]/jwks", "jwks_uri must not point to a private or reserved address"],
      ["https://keys.example/jwks#frag", "jwks_uri must not include a fragment component"],
      ["https://keys.example/jwks", "jwks_uri must belong to a trusted origin"],
    ]) {
      const res = await register({ jwks_uri: uri });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "invalid_client_metadata", error_description: description });
    }
  });

  it("registers with a public JWK set and answers no secret", async () => {
    const { publicKey } = await generateKeyPair("EdDSA", { extractable: true });
    const res = await register({ jwks: { keys: [await exportJWK(publicKey)] }, grant_types: ["authorization_code"] });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.client_secret).toBeUndefined();
    expect(body.token_endpoint_auth_method).toBe("private_key_jwt");
  });

  it("a stored jwks_uri on a loopback host (a row written elsewhere) is not fetched without the allow-list", async () => {
    let fetched = 0;
    const keys = await localServer(() => {
      fetched += 1;
      return Response.json({ keys: [] });
    });
    try {
      const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
      const res = await register({ jwks: { keys: [await exportJWK(publicKey)] }, grant_types: ["authorization_code"] });
      const { client_id } = (await res.json()) as { client_id: string };
      await provider.auth.$context.adapter.update({
        model: "oauthClient",
        where: [{ field: "clientId", value: client_id }],
        update: { jwks: null, jwksUri: `${keys.origin}/jwks` },
      });
      const now = Math.floor(Date.now() / 1000);
      const jwt = await new SignJWT({ iss: client_id, sub: client_id, aud: provider.issuer, jti: "x", exp: now + 60 })
        .setProtectedHeader({ alg: "ES256" })
        .sign(privateKey);
      const answer = await form(`${provider.issuer}/oauth2/introspect`, { token: "t", client_assertion_type: ASSERTION_TYPE, client_assertion: jwt });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: "invalid_client", error_description: "client jwks_uri is not trusted" });
      expect(fetched).toBe(0);
    } finally {
      await keys.close();
    }
  });
});
