import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { TEST_BASE_URL, type TestAuth, type TestClient } from "@latchkey/test-support";
import { jwt } from "@latchkey/jwt";
import { testAuth } from "@latchkey/test-support";
import { oauthProvider, type OAuthOptions } from "../src/index.ts";
import { adminClient, api, authorizeQuery, baseOptions, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const API = "https://api.example.com";
const REPORTS = "https://reports.example.com/v1";
const ISSUER = `${TEST_BASE_URL}/api/auth`;
const USERINFO = `${ISSUER}/oauth2/userinfo`;
const session = (c: TestClient) => new Headers({ cookie: c.jar.header() ?? "" });
type Tokens = { access_token: string; refresh_token?: string; scope: string; expires_in: number; error?: string; error_description?: string };

/** Runs authorize (with `extra`) and answers the 302's query. */
async function authorize(c: TestClient, clientId: string, challenge: string, extra: Record<string, string> | URLSearchParams) {
  const query = new URLSearchParams(authorizeQuery(clientId, challenge));
  for (const [name, value] of new URLSearchParams(extra)) query.append(name, value);
  const res = await c.get(`/oauth2/authorize?${query}`, { redirect: "manual" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!).searchParams;
}

/** A client, linked to `resources`, and a token set for `resource` (code + PKCE). */
async function grant(t: TestAuth, browser: TestClient, link: string[], resource: string[], clientBody: Record<string, unknown> = {}) {
  const c = await adminClient(t, clientBody);
  for (const identifier of link) await api(t).adminLinkClientResource({ params: { identifier, client_id: c.client_id }, headers: session(browser) });
  const basic = { id: c.client_id, secret: c.client_secret! };
  const { verifier, challenge } = await pkcePair();
  const extra = new URLSearchParams(resource.map((r) => ["resource", r]));
  const answer = await authorize(browser, c.client_id, challenge, extra);
  const code = answer.get("code")!;
  const body = new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT });
  const res = await browser.request("/oauth2/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString("base64")}` },
    body: body.toString(),
  });
  return { c, basic, res, tokens: res.json as Tokens };
}

describe("RFC 8707 resources as configured entities", () => {
  let t: TestAuth;
  let browser: TestClient;
  beforeAll(async () => {
    t = await testAuth({ emailAndPassword: { enabled: true }, plugins: [jwt({ jwks: { keyPairConfigs: [{ alg: "ES256" }] } }), oauthProvider({
      ...baseOptions,
      resources: [
        API,
        { identifier: REPORTS, name: "Reports", accessTokenTtl: 120, allowedScopes: ["openid", "profile"], customClaims: { tier: "gold", iss: "nope" } },
        { identifier: "https://pinned.example.com", signingAlgorithm: "ES256" },
        { identifier: "https://off.example.com", disabled: true },
        { identifier: "https://dpop.example.com", dpopBoundAccessTokensRequired: true },
        "not a uri",
      ],
      scopes: ["openid", "profile", "email", "offline_access", "read"],
    })] }, { db: "sqlite" });
    browser = await signedIn(t);
  });
  afterAll(() => t.close());

  it("seeds the configured rows as the reference writes them (bad identifiers skipped)", async () => {
    const rows = (await api(t).adminListOAuthResources({ headers: session(browser) })) as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.identifier).sort()).toEqual([API, "https://dpop.example.com", "https://off.example.com", "https://pinned.example.com", REPORTS].sort());
    const reports = rows.find((row) => row.identifier === REPORTS)!;
    expect(reports).toMatchObject({ name: "Reports", accessTokenTtl: 120, refreshTokenTtl: null, signingAlgorithm: null, allowedScopes: ["openid", "profile"], customClaims: { tier: "gold", iss: "nope" }, dpopBoundAccessTokensRequired: false, disabled: false, policyVersion: 1 });
    expect(rows.find((row) => row.identifier === API)).toMatchObject({ name: API, allowedScopes: null, customClaims: null });
  });

  it("a linked resource: a JWT access token whose audience is the resource (and userinfo for openid)", async () => {
    const { res, tokens } = await grant(t, browser, [API], [API]);
    expect(res.status).toBe(200);
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe("at+jwt");
    const claims = decodeJwt(tokens.access_token);
    expect(claims.aud).toEqual([API, USERINFO]);
    // userinfo still answers with it (its audience is there).
    const info = await browser.get("/oauth2/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(info.status).toBe(200);
  });

  it("enforcePerClientResources (default): an unlinked resource is refused at authorize (invalid_target to the client)", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const answer = await authorize(browser, c.client_id, challenge, { resource: API });
    expect([answer.get("error"), answer.get("error_description")]).toEqual(["invalid_target", `client is not linked to resource(s) ${API}`]);
    const unknown = await authorize(browser, c.client_id, challenge, { resource: "https://nowhere.example.com" });
    expect([unknown.get("error"), unknown.get("error_description")]).toEqual(["invalid_target", "requested resource https://nowhere.example.com is not configured"]);
    const disabled = await authorize(browser, c.client_id, challenge, { resource: "https://off.example.com" });
    expect([disabled.get("error"), disabled.get("error_description")]).toEqual(["invalid_target", "requested resource https://off.example.com is disabled"]);
  });

  it("allowedScopes narrow the token's scopes; accessTokenTtl shortens it; customClaims join (reserved names dropped)", async () => {
    const { res, tokens } = await grant(t, browser, [REPORTS], [REPORTS]);
    expect(res.status).toBe(200);
    expect(tokens.scope).toBe("openid profile");
    expect(tokens.expires_in).toBe(120);
    expect(tokens.refresh_token).toBeUndefined();
    const claims = decodeJwt(tokens.access_token);
    expect(claims.tier).toBe("gold");
    expect(claims.iss).toBe(ISSUER);
    expect(claims.exp! - claims.iat!).toBe(120);
  });

  it("signingAlgorithm pins the JWS algorithm through the jwt plugin", async () => {
    const { res, tokens } = await grant(t, browser, ["https://pinned.example.com"], ["https://pinned.example.com"]);
    expect(res.status).toBe(200);
    expect(decodeProtectedHeader(tokens.access_token).alg).toBe("ES256");
    const unpinned = await grant(t, browser, [API], [API]);
    expect(decodeProtectedHeader(unpinned.tokens.access_token).alg).toBe("EdDSA");
  });

  it("signingKeyId pins the key; two resources with different pins in one request are invalid_request", async () => {
    await grant(t, browser, ["https://pinned.example.com"], ["https://pinned.example.com"]); // the ES256 key exists
    const keys = ((await browser.get("/jwks")).json as { keys: Array<{ kid: string; alg: string }> }).keys;
    const es256 = keys.find((key) => key.alg === "ES256")!;
    await api(t).adminCreateOAuthResource({ body: { identifier: "https://kid.example.com", signingKeyId: es256.kid }, headers: session(browser) });
    const pinned = await grant(t, browser, ["https://kid.example.com"], ["https://kid.example.com"]);
    expect(decodeProtectedHeader(pinned.tokens.access_token)).toMatchObject({ kid: es256.kid, alg: "ES256" });
    await api(t).adminCreateOAuthResource({ body: { identifier: "https://eddsa.example.com", signingAlgorithm: "EdDSA" }, headers: session(browser) });
    const c = await adminClient(t);
    for (const identifier of ["https://pinned.example.com", "https://eddsa.example.com"]) {
      await api(t).adminLinkClientResource({ params: { identifier, client_id: c.client_id }, headers: session(browser) });
    }
    const { challenge } = await pkcePair();
    const answer = await authorize(browser, c.client_id, challenge, new URLSearchParams([["resource", "https://pinned.example.com"], ["resource", "https://eddsa.example.com"]]));
    expect([answer.get("error"), answer.get("error_description")]).toEqual(["invalid_request", "multi-resource request has conflicting signingAlgorithm pins; a single JWS signature cannot satisfy both"]);
  });

  it("a resource requiring DPoP refuses a token request without a proof", async () => {
    const { res } = await grant(t, browser, ["https://dpop.example.com"], ["https://dpop.example.com"]);
    expect([res.status, res.json]).toEqual([400, { error: "invalid_dpop_proof", error_description: "DPoP proof header is required" }]);
  });

  it("spec rule 3: a token or refresh request narrows, never widens (another linked resource is refused)", async () => {
    const { basic, tokens } = await grant(t, browser, [API, "https://pinned.example.com"], [API]);
    expect(tokens.refresh_token).toBeDefined();
    const widened = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, resource: "https://pinned.example.com" }, basic);
    expect([widened.status, (widened.json as Tokens).error]).toEqual([400, "invalid_target"]);
    const same = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, resource: API }, basic);
    expect(same.status).toBe(200);
    expect(decodeJwt((same.json as Tokens).access_token).aud).toEqual([API, USERINFO]);
  });

  it("client_credentials: configured and linked resources only", async () => {
    const c = await adminClient(t, { client_credentials_scopes: ["read"], grant_types: ["authorization_code", "client_credentials"] });
    const basic = { id: c.client_id, secret: c.client_secret! };
    const unlinked = await formPost(browser, "/oauth2/token", { grant_type: "client_credentials", resource: API }, basic);
    expect([unlinked.status, (unlinked.json as Tokens).error]).toEqual([400, "invalid_target"]);
    await api(t).adminLinkClientResource({ params: { identifier: API, client_id: c.client_id }, headers: session(browser) });
    const linked = await formPost(browser, "/oauth2/token", { grant_type: "client_credentials", resource: API }, basic);
    expect(linked.status).toBe(200);
    expect(decodeJwt((linked.json as Tokens).access_token)).toMatchObject({ aud: API, azp: c.client_id, sub: c.client_id });
  });

  it("introspection: the issuing client, or a resource server linked to the token's resource; others see it inactive", async () => {
    const { basic, tokens } = await grant(t, browser, [API], [API]);
    const rs = await adminClient(t);
    const rsBasic = { id: rs.client_id, secret: rs.client_secret! };
    const introspect = (who: { id: string; secret: string }) => formPost(browser, "/oauth2/introspect", { token: tokens.access_token }, who);
    expect((await introspect(basic)).json).toMatchObject({ active: true, aud: [API, USERINFO] });
    expect((await introspect(rsBasic)).json).toEqual({ active: false });
    await api(t).adminLinkClientResource({ params: { identifier: API, client_id: rs.client_id }, headers: session(browser) });
    expect((await introspect(rsBasic)).json).toMatchObject({ active: true, client_id: basic.id, aud: [API, USERINFO] });
    await api(t).adminUnlinkClientResource({ params: { identifier: API, client_id: rs.client_id }, headers: session(browser) });
    expect((await introspect(rsBasic)).json).toEqual({ active: false });
  });

  it("deleting a resource ends the tokens naming it; disabling stops new ones only", async () => {
    const made = "https://temp.example.com";
    await api(t).adminCreateOAuthResource({ body: { identifier: made }, headers: session(browser) });
    const { basic, tokens } = await grant(t, browser, [made], [made]);
    await api(t).adminUpdateOAuthResource({ params: { identifier: made }, body: { disabled: true }, headers: session(browser) });
    expect((await formPost(browser, "/oauth2/introspect", { token: tokens.access_token }, basic)).json).toMatchObject({ active: true });
    await api(t).adminDeleteOAuthResource({ params: { identifier: made }, headers: session(browser) });
    expect((await formPost(browser, "/oauth2/introspect", { token: tokens.access_token }, basic)).json).toEqual({ active: false });
  });
});

describe("resource options", () => {
  it("enforcePerClientResources: false lets any client name any enabled resource", async () => {
    const t = await providerInstance({ resources: [API], enforcePerClientResources: false });
    try {
      const browser = await signedIn(t);
      const { res, tokens } = await grant(t, browser, [], [API]);
      expect(res.status).toBe(200);
      expect(decodeJwt(tokens.access_token).aud).toEqual([API, USERINFO]);
    } finally {
      await t.close();
    }
  });

  it("resourceSeedMode: insertOnly keeps admin edits, merge writes the configured members, overwrite replaces every column", async () => {
    const first = await providerInstance({ resources: [{ identifier: API, name: "API", accessTokenTtl: 60 }] });
    try {
      const browser = await signedIn(first);
      await api(first).adminUpdateOAuthResource({ params: { identifier: API }, body: { refreshTokenTtl: 600, accessTokenTtl: 30 }, headers: session(browser) });
      const reseed = async (options: Partial<OAuthOptions>) => {
        const again = oauthProvider({ ...baseOptions, ...options });
        await again.options.resourceStore.seed((await first.auth.$context) as never);
        return api(first).adminGetOAuthResource({ params: { identifier: API }, headers: session(browser) }) as Promise<Record<string, unknown>>;
      };
      expect(await reseed({ resources: [{ identifier: API, name: "Renamed" }] })).toMatchObject({ name: "API", accessTokenTtl: 30, refreshTokenTtl: 600 });
      expect(await reseed({ resources: [{ identifier: API, name: "Renamed" }], resourceSeedMode: "merge" })).toMatchObject({ name: "Renamed", accessTokenTtl: 30, refreshTokenTtl: 600 });
      expect(await reseed({ resources: [{ identifier: API, accessTokenTtl: 90 }], resourceSeedMode: "overwrite" })).toMatchObject({ name: API, accessTokenTtl: 90, refreshTokenTtl: null });
    } finally {
      await first.close();
    }
  });

  it("cachedResources: a cached row is served from memory until this instance's admin routes change it; refreshTokenTtl bounds the refresh token", async () => {
    const t = await providerInstance({ resources: [{ identifier: API, refreshTokenTtl: 600 }], enforcePerClientResources: false, cachedResources: new Set([API]) });
    try {
      const browser = await signedIn(t);
      const first = await grant(t, browser, [], [API]);
      expect(first.res.status).toBe(200);
      const ctx = await t.auth.$context;
      const refresh = await ctx.adapter.findOne<{ expiresAt: Date; createdAt: Date }>({ model: "oauthRefreshToken", where: [{ field: "clientId", value: first.c.client_id }] });
      expect((new Date(refresh!.expiresAt).getTime() - new Date(refresh!.createdAt).getTime()) / 1000).toBe(600);
      // Disabled behind the provider's back: the cached row still answers.
      await ctx.adapter.update({ model: "oauthResource", where: [{ field: "identifier", value: API }], update: { disabled: true } });
      expect((await grant(t, browser, [], [API])).res.status).toBe(200);
      // Through the admin route, the cache entry is dropped.
      await api(t).adminUpdateOAuthResource({ params: { identifier: API }, body: { disabled: true }, headers: session(browser) });
      const { challenge } = await pkcePair();
      const c = await adminClient(t);
      expect((await authorize(browser, c.client_id, challenge, { resource: API })).get("error")).toBe("invalid_target");
    } finally {
      await t.close();
    }
  });

  it("start-up checks: registration resources must be configured; the seed mode must be known", () => {
    const base = { loginPage: "/l", consentPage: "/c" };
    expect(() => oauthProvider({ ...base, clientRegistrationDefaultResources: [API] })).toThrow("clientRegistrationDefaultResources resource https://api.example.com not found in resources");
    expect(() => oauthProvider({ ...base, resources: [API], clientRegistrationAllowedResources: [REPORTS] })).toThrow(TypeError);
    expect(() => oauthProvider({ ...base, resourceSeedMode: "sometimes" as never })).toThrow(TypeError);
  });

  it("identifierValidator replaces the RFC 8707 check; resourcePrivileges gates each admin action", async () => {
    const seen: string[] = [];
    const t = await testAuth({
      emailAndPassword: { enabled: true },
      plugins: [jwt(), oauthProvider({
        ...baseOptions,
        identifierValidator: (identifier) => identifier.startsWith("urn:api:"),
        resourcePrivileges: ({ action, resourceId }) => {
          seen.push(`${action}:${resourceId ?? ""}`);
          return action !== "delete";
        },
      })],
    }, { db: "sqlite" });
    try {
      const browser = await signedIn(t);
      const headers = session(browser);
      await expect(api(t).adminCreateOAuthResource({ body: { identifier: API }, headers })).rejects.toMatchObject({ status: 400, body: { error: "invalid_target", error_description: `resource identifier ${API} failed validation` } });
      expect(await api(t).adminCreateOAuthResource({ body: { identifier: "urn:api:one" }, headers })).toMatchObject({ identifier: "urn:api:one" });
      await expect(api(t).adminDeleteOAuthResource({ params: { identifier: "urn:api:one" }, headers })).rejects.toMatchObject({ status: 401 });
      await expect(api(t).adminListOAuthResources({ headers: new Headers() })).rejects.toMatchObject({ status: 401 });
      expect(seen).toEqual(["create:", "create:", "delete:urn:api:one"]);
    } finally {
      await t.close();
    }
  });
});
