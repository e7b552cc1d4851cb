import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from "jose";
import type { TestAuth, TestClient } from "@latchkey/test-support";
import { adminClient, authorizeCode, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const ISSUER = "http://localhost:3000/api/auth";

describe("POST /oauth2/token", () => {
  let t: TestAuth;
  let browser: TestClient;
  beforeAll(async () => {
    t = await providerInstance();
    browser = await signedIn(t);
  });
  afterAll(() => t.close());

  async function codeFor(extra: Record<string, unknown> = {}, query: Record<string, string> = {}) {
    const c = await adminClient(t, extra);
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge, query);
    const basic = { id: c.client_id, secret: c.client_secret! };
    return { c, code, verifier, basic };
  }
  const redeem = (code: string, verifier: string, basic: { id: string; secret: string }) =>
    formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, basic);

  it("authorization_code: opaque access token, refresh token, an ID token signed by the jwt plugin (protocol claims only)", async () => {
    const { c, code, verifier, basic } = await codeFor({}, { nonce: "n-1" });
    const res = await redeem(code, verifier, basic);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = res.json as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "openid profile email offline_access" });
    expect(body.access_token).toMatch(/^[A-Za-z]{32}$/);
    expect(body.refresh_token).toMatch(/^[A-Za-z]{32}$/);
    const keys = (await browser.get("/jwks")).json as JSONWebKeySet;
    const { payload } = await jwtVerify(body.id_token as string, createLocalJWKSet(keys), { issuer: ISSUER, audience: c.client_id });
    expect(payload).toMatchObject({ acr: "0", nonce: "n-1", sub: expect.any(String), at_hash: expect.any(String) });
    expect(payload).not.toHaveProperty("email");
    expect(payload).not.toHaveProperty("name");
    // Stored as the reference stores it: the SHA-256 base64url of the token, never the token.
    const rows = await t.auth.$context.adapter.findMany<{ token: string }>({ model: "oauthAccessToken", where: [{ field: "clientId", value: c.client_id }] });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token).not.toBe(body.access_token);
    expect(rows[0]!.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("a code is single use: the second presentation is invalid_grant and revokes what the first one got", async () => {
    const { code, verifier, basic } = await codeFor();
    const first = await redeem(code, verifier, basic);
    expect(first.status).toBe(200);
    const second = await redeem(code, verifier, basic);
    expect([second.status, second.json]).toEqual([400, { error: "invalid_grant", error_description: "invalid code" }]);
    const info = await browser.get("/oauth2/userinfo", { headers: { authorization: `Bearer ${(first.json as { access_token: string }).access_token}` } });
    expect(info.status).toBe(401);
  });

  it("row 108: a wrong PKCE verifier is 400 invalid_grant (RFC 7636 §4.6) and leaves the code for its holder", async () => {
    const { code, verifier, basic } = await codeFor();
    const wrong = await redeem(code, `${verifier}x`, basic);
    expect([wrong.status, wrong.json]).toEqual([400, { error: "invalid_grant", error_description: "code verification failed" }]);
    expect(wrong.headers.get("cache-control")).toBe("no-store");
    expect((await redeem(code, verifier, basic)).status).toBe(200);
  });

  it("row 109: a wrong client secret is refused and the code still works for its holder", async () => {
    const { code, verifier, basic } = await codeFor();
    const wrong = await redeem(code, verifier, { id: basic.id, secret: "not-the-secret" });
    expect([wrong.status, wrong.json]).toEqual([401, { error: "invalid_client", error_description: "invalid client_secret" }]);
    expect(wrong.headers.get("www-authenticate")).toBe("Basic");
    expect((await redeem(code, verifier, basic)).status).toBe(200);
  });

  it("row 109: another client's valid credentials are refused and the code still works for its holder", async () => {
    const { code, verifier, basic } = await codeFor();
    const other = await adminClient(t);
    const wrong = await redeem(code, verifier, { id: other.client_id, secret: other.client_secret! });
    expect([wrong.status, wrong.json]).toEqual([400, { error: "invalid_grant", error_description: "invalid client_id" }]);
    expect((await redeem(code, verifier, basic)).status).toBe(200);
  });

  it("refresh_token: rotation; the old token replayed ends the family", async () => {
    const { code, verifier, basic } = await codeFor();
    const first = (await redeem(code, verifier, basic)).json as { refresh_token: string; access_token: string };
    const rotated = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: first.refresh_token }, basic);
    expect(rotated.status).toBe(200);
    const second = rotated.json as { refresh_token: string; access_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const replay = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: first.refresh_token }, basic);
    expect([replay.status, replay.json]).toEqual([400, { error: "invalid_grant", error_description: "invalid refresh token" }]);
    // RFC 9700 §4.14.2: the whole family is gone, the newest token included.
    const after = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: second.refresh_token }, basic);
    expect([after.status, (after.json as { error: string }).error]).toEqual([400, "invalid_grant"]);
  });

  it("row 113: a client registered without the refresh_token grant gets no refresh token, offline_access or not", async () => {
    const { code, verifier, basic } = await codeFor({ grant_types: ["authorization_code"] });
    const res = await redeem(code, verifier, basic);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ scope: "openid profile email offline_access" });
    expect(res.json).not.toHaveProperty("refresh_token");
  });

  it("row 114: resources may narrow, never widen: none may be added at the token or refresh request", async () => {
    const userinfo = `${ISSUER}/oauth2/userinfo`;
    const { code, verifier, basic } = await codeFor();
    const added = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, resource: userinfo }, basic);
    expect([added.status, added.json]).toEqual([400, { error: "invalid_target", error_description: "requested resource not authorized" }]);
    const tokens = (await redeem(code, verifier, basic)).json as { refresh_token: string };
    const widened = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, resource: userinfo }, basic);
    expect([widened.status, widened.json]).toEqual([400, { error: "invalid_target", error_description: "requested resource invalid" }]);
    const bound = await codeFor({}, { resource: userinfo });
    const narrowed = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code: bound.code, code_verifier: bound.verifier, redirect_uri: REDIRECT, resource: userinfo }, bound.basic);
    expect(narrowed.status).toBe(200);
  });

  it("refresh_token: scopes may narrow, never widen", async () => {
    const { code, verifier, basic } = await codeFor();
    const first = (await redeem(code, verifier, basic)).json as { refresh_token: string };
    const wider = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: first.refresh_token, scope: "openid admin" }, basic);
    expect([wider.status, wider.json]).toEqual([400, { error: "invalid_scope", error_description: "unable to issue scope admin" }]);
    const narrower = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: first.refresh_token, scope: "openid offline_access" }, basic);
    expect((narrower.json as { scope: string }).scope).toBe("openid offline_access");
  });

  it("client_credentials: the client's clientCredentialsScopes only; no refresh or ID token", async () => {
    const t2 = await providerInstance({ scopes: ["openid", "profile", "email", "offline_access", "read", "write"] });
    try {
      const c = await adminClient(t2, { grant_types: ["client_credentials"], redirect_uris: undefined, client_credentials_scopes: ["read"] });
      const basic = { id: c.client_id, secret: c.client_secret! };
      const ok = await formPost(await signedIn(t2), "/oauth2/token", { grant_type: "client_credentials" }, basic);
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ scope: "read", token_type: "Bearer", expires_in: 3600 });
      expect(ok.json).not.toHaveProperty("refresh_token");
      expect(ok.json).not.toHaveProperty("id_token");
      const wider = await formPost(await signedIn(t2, { ...ada2 }), "/oauth2/token", { grant_type: "client_credentials", scope: "write" }, basic);
      expect(wider.json).toEqual({ error: "invalid_scope", error_description: "The following scopes are invalid: write" });
    } finally {
      await t2.close();
    }
  });

  it("a JWT access token when the grant names the userinfo audience; introspection reads it", async () => {
    const { c, code, verifier, basic } = await codeFor({}, { resource: `${ISSUER}/oauth2/userinfo` });
    const res = await redeem(code, verifier, basic);
    const token = (res.json as { access_token: string }).access_token;
    expect(decodeJwt(token)).toMatchObject({ aud: `${ISSUER}/oauth2/userinfo`, azp: c.client_id, client_id: c.client_id, iss: ISSUER });
    const introspected = await formPost(browser, "/oauth2/introspect", { token }, basic);
    expect(introspected.json).toMatchObject({ active: true, client_id: c.client_id, token_type: "Bearer" });
    const revoke = await formPost(browser, "/oauth2/revoke", { token }, basic);
    expect([revoke.status, revoke.json]).toEqual([400, { error: "unsupported_token_type", error_description: "JWT access tokens are self-contained and cannot be revoked server-side" }]);
  });

  it("errors of the token endpoint are no-store, also before any client is known", async () => {
    const missing = await formPost(browser, "/oauth2/token", {});
    expect([missing.status, missing.json]).toEqual([400, { error: "invalid_request", error_description: "grant_type is required" }]);
    expect(missing.headers.get("cache-control")).toBe("no-store");
    const unknown = await formPost(browser, "/oauth2/token", { grant_type: "password" });
    expect(unknown.json).toEqual({ error: "unsupported_grant_type", error_description: "unsupported grant_type password" });
    expect(unknown.headers.get("cache-control")).toBe("no-store");
  });
});

const ada2 = { email: "ada2@example.com", password: "correct horse battery", name: "Ada Two" };

describe("refresh replay window (refreshTokenReuseInterval)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({ refreshTokenReuseInterval: 30 });
  });
  afterAll(() => t.close());

  it("the same refresh request inside the window gets the same answer; a different one does not, and nothing is revoked", async () => {
    const browser = await signedIn(t);
    const c = await adminClient(t);
    const basic = { id: c.client_id, secret: c.client_secret! };
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge);
    const tokens = (await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, basic)).json as { refresh_token: string };
    const first = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token }, basic);
    const again = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token }, basic);
    expect(again.status).toBe(200);
    const [a, b] = [first.json as Record<string, unknown>, again.json as Record<string, unknown>];
    expect(b.access_token).toBe(a.access_token);
    expect(b.refresh_token).toBe(a.refresh_token);
    const narrower = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, scope: "openid" }, basic);
    expect(narrower.status).toBe(400);
    // Inside the window a mismatch does not end the family: the rotated token still works.
    const next = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: a.refresh_token as string }, basic);
    expect(next.status).toBe(200);
  });
});

describe("customAccessTokenClaims", () => {
  it("adds claims to JWT access tokens and to introspection of opaque ones; reserved names are dropped", async () => {
    const t = await providerInstance({
      customAccessTokenClaims: ({ user, scopes }) => ({ tenant: "acme", email_seen: user?.email, count: scopes.length, sub: "forged", iss: "forged" }),
    });
    try {
      const browser = await signedIn(t);
      const c = await adminClient(t);
      const basic = { id: c.client_id, secret: c.client_secret! };
      const run = async (extra: Record<string, string>) => {
        const { verifier, challenge } = await pkcePair();
        const code = await authorizeCode(browser, c.client_id, challenge, extra);
        return (await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, basic)).json as { access_token: string };
      };
      const jwt = decodeJwt((await run({ resource: `${ISSUER}/oauth2/userinfo` })).access_token);
      expect(jwt).toMatchObject({ tenant: "acme", email_seen: "ada@example.com", count: 4, iss: ISSUER });
      expect(jwt.sub).not.toBe("forged");
      const opaque = (await run({})).access_token;
      const introspected = (await formPost(browser, "/oauth2/introspect", { token: opaque }, basic)).json as Record<string, unknown>;
      expect(introspected).toMatchObject({ active: true, tenant: "acme", count: 4, iss: ISSUER });
      expect(introspected.sub).not.toBe("forged");
    } finally {
      await t.close();
    }
  });
});
