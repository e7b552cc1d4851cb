import { APIError, type LatchkeyPlugin } from "@latchkey/core";
import { createHmac, timingSafeEqual } from "node:crypto";
import { calculateJwkThumbprint, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumeClientAssertion, extendOAuthProvider, getOAuthProviderApi, oauthProvider, type OAuthProviderExtension } from "../src/index.ts";
import { liveProvider, type LiveProvider } from "./live-provider.ts";

const GRANT = "urn:example:params:oauth:grant-type:user-email";
const METHOD = "example_hmac_client_auth";
const ASSERTION = "urn:example:params:oauth:client-assertion-type:hmac";
const REGISTRY = "https://registry.example/";
const KEY = "registry-shared-key-for-tests-only";

/**
 * A test-only grant: the client names a user by email and gets that user's token set. It
 * authenticates the client and issues through the provider's API, as a real extension does.
 */
const emailGrant: OAuthProviderExtension = {
  grants: {
    [GRANT]: async ({ ctx, provider }) => {
      const body = ctx.body as Record<string, unknown>;
      const email = body.email;
      if (typeof email !== "string" || !email) throw new APIError("BAD_REQUEST", { error: "invalid_request", error_description: "email is required" });
      const scopes = typeof body.scope === "string" ? body.scope.split(" ") : [];
      const { client } = await provider.authenticateClient({ scopes });
      const found = await ctx.context.internalAdapter.findUserByEmail(email);
      if (!found) throw new APIError("BAD_REQUEST", { error: "invalid_grant", error_description: "unknown user" });
      return provider.issueTokens({ client, scopes, user: found.user, idTokenClaims: { per_issuance: "yes", nonce: "forged" }, tokenResponse: { issued_by: "extension", access_token: "forged" } });
    },
  },
  claims: {
    idToken: () => ({ tenant: "acme", sub: "forged", auth_time: 1 }),
    accessToken: () => ({ tier: "gold", client_id: "forged" }),
    userInfo: () => ({ department: "research", email: "forged@example.com" }),
  },
  metadata: ({ document }) => ({ example_endpoint: `${String(document.issuer)}/example`, issuer: "https://forged.example" }),
};

/** `<base64url payload>.<base64url HMAC>`: what the registry's clients send as `client_assertion`. */
function hmacAssertion(payload: Record<string, unknown>, key = KEY): string {
  const body = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 60, ...payload })).toString("base64url");
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

/**
 * A companion plugin that registers itself with `extendOAuthProvider` in `init`: client
 * discovery for registry ids (stored with `clientDiscoveryId`), authenticated by an HMAC
 * assertion bound to the endpoint, single use.
 */
function registryPlugin(): LatchkeyPlugin {
  const extension: OAuthProviderExtension = {
    clientAuthentication: {
      [METHOD]: {
        assertionTypes: [ASSERTION],
        // Verifies the MAC, then leaves audience, lifetime and single use to the provider's helper,
        // as the reference's documentation asks of an extension method.
        authenticate: async ({ ctx, opts, assertion, expectedAudience }) => {
          const [body, mac] = assertion.split(".");
          const expected = createHmac("sha256", KEY).update(body ?? "").digest();
          const given = Buffer.from(mac ?? "", "base64url");
          if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error("bad mac");
          const payload = JSON.parse(Buffer.from(body!, "base64url").toString()) as { sub: string; aud: string; jti: string; exp: number };
          await consumeClientAssertion(ctx, opts, { namespace: `${METHOD}:${payload.sub}`, payload, expectedAudience: expectedAudience ?? "" });
          return { clientId: payload.sub };
        },
      },
    },
    clientDiscovery: {
      id: "example-registry",
      matches: (clientId) => clientId.startsWith(REGISTRY),
      resolve: async (ctx, clientId, existing) => {
        if (clientId.endsWith("/revoked")) return null;
        if (existing) return existing;
        return ctx.context.internalAdapter.create("oauthClient", {
          clientId,
          clientDiscoveryId: "example-registry",
          name: "Registry TV",
          tokenEndpointAuthMethod: METHOD,
          grantTypes: [GRANT, "client_credentials"],
          clientCredentialsScopes: ["reports"],
          scopes: ["openid", "email", "reports"],
          redirectUris: [],
          disabled: false,
        });
      },
      discoveryMetadata: { client_id_metadata_document_supported: true },
    },
  };
  return { id: "example-registry", init: (ctx) => extendOAuthProvider(ctx, extension) };
}

describe("oauthProvider({ extensions }) and extendOAuthProvider(): real flows over HTTP", () => {
  let provider: LiveProvider;
  let confidential: { client_id: string; client_secret: string };
  let userId: string;
  const tokenUrl = () => `${provider.issuer}/oauth2/token`;
  const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields) });
  const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` });
  const count = (model: string) => provider.auth.$context.adapter.count({ model });

  beforeAll(async () => {
    provider = await liveProvider(
      { extensions: [emailGrant], scopes: ["openid", "profile", "email", "offline_access", "reports"] },
      { plugins: [registryPlugin()] },
    );
    const signUp = await fetch(`${provider.issuer}/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: provider.origin },
      body: JSON.stringify({ email: "ext@example.com", password: "correct horse battery", name: "Ext User" }),
    });
    userId = ((await signUp.json()) as { user: { id: string } }).user.id;
    const api = provider.auth.api as unknown as { adminCreateOAuthClient(input: { body: Record<string, unknown> }): Promise<typeof confidential> };
    confidential = await api.adminCreateOAuthClient({ body: { client_name: "Back office", grant_types: [GRANT], token_endpoint_auth_method: "client_secret_post" } });
  });
  afterAll(() => provider.close());

  it("discovery lists the grant and the method and merges extension members without replacing the provider's", async () => {
    const doc = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(provider.issuer);
    expect(doc.grant_types_supported).toContain(GRANT);
    expect(doc.token_endpoint_auth_methods_supported).toContain(METHOD);
    expect(doc.introspection_endpoint_auth_methods_supported).toContain(METHOD);
    expect(doc.example_endpoint).toBe(`${provider.issuer}/example`);
    expect(doc.client_id_metadata_document_supported).toBe(true);
    const oauthDoc = (await (await fetch(`${provider.issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(oauthDoc.example_endpoint).toBe(`${provider.issuer}/example`);
  });

  it("openid-client redeems the extension grant; ID token, userinfo and introspection carry the extension claims, never replacing the provider's", async () => {
    const config = await oidc.discovery(new URL(provider.issuer), confidential.client_id, { id_token_signed_response_alg: "EdDSA" }, oidc.ClientSecretPost(confidential.client_secret), {
      execute: [oidc.allowInsecureRequests],
    });
    const tokens = await oidc.genericGrantRequest(config, GRANT, { email: "ext@example.com", scope: "openid email" });
    expect(tokens.token_type?.toLowerCase()).toBe("bearer");
    expect(tokens.issued_by).toBe("extension");
    expect(tokens.access_token).not.toBe("forged");
    const keys = createRemoteJWKSet(new URL(`${provider.issuer}/jwks`));
    const { payload } = await jwtVerify(tokens.id_token!, keys, { issuer: provider.issuer, audience: confidential.client_id });
    expect(payload).toMatchObject({ sub: userId, tenant: "acme", per_issuance: "yes" });
    expect(payload.nonce).toBeUndefined();
    expect(payload.auth_time).toBeUndefined();
    const info = await oidc.fetchUserInfo(config, tokens.access_token, userId);
    expect(info).toMatchObject({ sub: userId, email: "ext@example.com", department: "research" });
    const introspected = await post(`${provider.issuer}/oauth2/introspect`, { token: tokens.access_token, client_id: confidential.client_id, client_secret: confidential.client_secret });
    expect(await introspected.json()).toMatchObject({ active: true, tier: "gold", client_id: confidential.client_id });
  });

  it("bad input to the extension grant is a 4xx OAuth error with no-store, and nothing is written", async () => {
    const before = [await count("oauthAccessToken"), await count("oauthRefreshToken")];
    const cases: Array<[Record<string, string>, Record<string, string>, number, string]> = [
      [{ grant_type: GRANT, client_id: confidential.client_id, client_secret: confidential.client_secret }, {}, 400, "invalid_request"],
      [{ grant_type: GRANT, email: "nobody@example.com", client_id: confidential.client_id, client_secret: confidential.client_secret }, {}, 400, "invalid_grant"],
      [{ grant_type: GRANT, email: "ext@example.com", client_id: confidential.client_id, client_secret: "wrong" }, {}, 400, "invalid_client"],
      [{ grant_type: GRANT, email: "ext@example.com", client_id: confidential.client_id }, {}, 400, "invalid_client"],
      [{ grant_type: GRANT, email: "ext@example.com", scope: "admin:all", client_id: confidential.client_id, client_secret: confidential.client_secret }, {}, 400, "invalid_scope"],
      [{ grant_type: GRANT, email: "ext@example.com" }, basic(confidential.client_id, confidential.client_secret), 401, "invalid_client"],
      [{ grant_type: GRANT, email: "ext@example.com", client_assertion_type: ASSERTION, client_assertion: "garbage" }, {}, 400, "invalid_client"],
    ];
    for (const [fields, headers, status, error] of cases) {
      const answer = await post(tokenUrl(), fields, headers);
      expect(answer.status, JSON.stringify(fields)).toBe(status);
      expect(((await answer.json()) as { error: string }).error).toBe(error);
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
    expect([await count("oauthAccessToken"), await count("oauthRefreshToken")]).toEqual(before);
  });

  it("oauth4webapi with a DPoP proof gets DPoP-bound tokens from the extension grant; a client that requires DPoP gets none without one", async () => {
    const as = await oauth.processDiscoveryResponse(new URL(provider.issuer), await oauth.discoveryRequest(new URL(provider.issuer), { [oauth.allowInsecureRequests]: true }));
    const pair = await generateKeyPair("ES256", { extractable: true });
    const jkt = await calculateJwkThumbprint(await exportJWK(pair.publicKey));
    const rp: oauth.Client = { client_id: confidential.client_id };
    const auth = oauth.ClientSecretPost(confidential.client_secret);
    const DPoP = oauth.DPoP(rp, pair);
    const params = new URLSearchParams({ email: "ext@example.com", scope: "openid" });
    const send = () => oauth.genericTokenEndpointRequest(as, rp, auth, GRANT, params, { DPoP, [oauth.allowInsecureRequests]: true });
    const tokens = await oauth.processGenericTokenEndpointResponse(as, rp, await send());
    expect(tokens.token_type).toBe("dpop");
    const introspected = await post(`${provider.issuer}/oauth2/introspect`, { token: tokens.access_token, client_id: confidential.client_id, client_secret: confidential.client_secret });
    expect(await introspected.json()).toMatchObject({ active: true, token_type: "DPoP", cnf: { jkt } });
    const api = provider.auth.api as unknown as { adminCreateOAuthClient(input: { body: Record<string, unknown> }): Promise<typeof confidential> };
    const bound = await api.adminCreateOAuthClient({ body: { client_name: "Bound", grant_types: [GRANT], token_endpoint_auth_method: "client_secret_post", dpop_bound_access_tokens: true } });
    const before = await count("oauthAccessToken");
    const refused = await post(tokenUrl(), { grant_type: GRANT, email: "ext@example.com", client_id: bound.client_id, client_secret: bound.client_secret });
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([400, "invalid_dpop_proof"]);
    expect(await count("oauthAccessToken")).toBe(before);
  });

  it("a discovered client authenticates with the extension's assertion at the token and introspection endpoints", async () => {
    const clientId = `${REGISTRY}tv`;
    const assertion = (aud: string, jti: string) => hmacAssertion({ sub: clientId, aud, jti });
    const first = await post(tokenUrl(), { grant_type: "client_credentials", scope: "reports", client_assertion_type: ASSERTION, client_assertion: assertion(tokenUrl(), "a1") });
    expect(first.status, await first.clone().text()).toBe(200);
    const { access_token } = (await first.json()) as { access_token: string };
    const row = await provider.auth.$context.adapter.findOne<{ clientDiscoveryId: string; tokenEndpointAuthMethod: string }>({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });
    expect(row).toMatchObject({ clientDiscoveryId: "example-registry", tokenEndpointAuthMethod: METHOD });
    // The extension grant, with the same client and a fresh assertion naming it.
    const user = await post(tokenUrl(), { grant_type: GRANT, email: "ext@example.com", scope: "openid", client_id: clientId, client_assertion_type: ASSERTION, client_assertion: assertion(tokenUrl(), "a2") });
    expect(user.status).toBe(200);
    // Bound to the endpoint: an assertion made for the token endpoint fails at introspection.
    const introspectUrl = `${provider.issuer}/oauth2/introspect`;
    const wrongAud = await post(introspectUrl, { token: access_token, client_assertion_type: ASSERTION, client_assertion: assertion(tokenUrl(), "a3") });
    expect([wrongAud.status, ((await wrongAud.json()) as { error: string }).error]).toEqual([400, "invalid_client"]);
    const introspected = await post(introspectUrl, { token: access_token, client_assertion_type: ASSERTION, client_assertion: assertion(introspectUrl, "a4") });
    expect(await introspected.json()).toMatchObject({ active: true, client_id: clientId, scope: "reports" });
    // Replayed, forged, or naming another client_id: invalid_client.
    const replay = await post(tokenUrl(), { grant_type: "client_credentials", client_assertion_type: ASSERTION, client_assertion: assertion(tokenUrl(), "a1") });
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_client");
    const forged = await post(tokenUrl(), { grant_type: "client_credentials", client_assertion_type: ASSERTION, client_assertion: hmacAssertion({ sub: clientId, aud: tokenUrl(), jti: "a5" }, "other-key") });
    expect(((await forged.json()) as { error: string }).error).toBe("invalid_client");
    const mismatch = await post(tokenUrl(), { grant_type: "client_credentials", client_id: confidential.client_id, client_assertion_type: ASSERTION, client_assertion: assertion(tokenUrl(), "a6") });
    expect(((await mismatch.json()) as { error: string }).error).toBe("invalid_client");
    // A client secret cannot stand in for the registered extension method.
    const bySecret = await post(tokenUrl(), { grant_type: "client_credentials", client_id: clientId, client_secret: "anything" });
    expect(((await bySecret.json()) as { error: string }).error).toBe("invalid_client");
  });

  it("a discovery that refuses a client it owns fails closed, though a row exists", async () => {
    const clientId = `${REGISTRY}revoked`;
    await provider.auth.$context.internalAdapter.create("oauthClient", {
      clientId, clientDiscoveryId: "example-registry", tokenEndpointAuthMethod: METHOD, grantTypes: ["client_credentials"], clientCredentialsScopes: ["reports"], redirectUris: [], disabled: false,
    });
    const refused = await post(tokenUrl(), { grant_type: "client_credentials", client_assertion_type: ASSERTION, client_assertion: hmacAssertion({ sub: clientId, aud: tokenUrl(), jti: "r1" }) });
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([400, "invalid_client"]);
    expect(await count("oauthAccessToken")).toBeGreaterThan(0);
  });

  it("getOAuthProviderApi outside a grant: getClient consults discovery; issueTokens without a grant type is refused", async () => {
    const ctx = { context: provider.auth.$context, headers: new Headers(), body: {}, path: "/example" } as unknown as Parameters<typeof getOAuthProviderApi>[0];
    const options = (provider.auth.$context.plugins.find((plugin) => plugin.id === "oauth-provider") as { options: Parameters<typeof getOAuthProviderApi>[1] }).options;
    const api = getOAuthProviderApi(ctx, options);
    expect((await api.getClient(`${REGISTRY}tv`))?.clientDiscoveryId).toBe("example-registry");
    expect(await api.getClient(`${REGISTRY}revoked`)).toBeNull();
    const client = (await api.getClient(confidential.client_id))!;
    await expect(api.issueTokens({ client, scopes: [] })).rejects.toMatchObject({ status: 500 });
    expect(await api.hashToken("abc", "access_token")).toMatch(/^[\w-]{43}$/);
    expect(await api.validateAccessToken("not-a-token")).toEqual({ active: false });
    await expect(api.requireActiveAccessToken("not-a-token")).rejects.toMatchObject({ status: 401 });
  });
});

describe("extension configuration is checked at start-up", () => {
  const options = { loginPage: "/login", consentPage: "/consent" };
  const handler = async () => ({}) as never;
  it("refuses non-URI grant and assertion types, reserved methods, and overlapping extensions (TypeError)", () => {
    expect(() => oauthProvider({ ...options, extensions: [{ grants: { my_grant: handler } }] })).toThrow(TypeError);
    expect(() => oauthProvider({ ...options, extensions: [{ clientAuthentication: { private_key_jwt: { assertionTypes: [ASSERTION], authenticate: () => ({ clientId: "x" }) } } }] })).toThrow(/reserved/);
    expect(() => oauthProvider({ ...options, extensions: [{ clientAuthentication: { mine: { authenticate: () => ({ clientId: "x" }) } } }] })).toThrow(/absolute URI/);
    expect(() =>
      oauthProvider({ ...options, extensions: [{ clientAuthentication: { mine: { assertionTypes: ["urn:ietf:params:oauth:client-assertion-type:jwt-bearer"], authenticate: () => ({ clientId: "x" }) } } }] }),
    ).toThrow(/reserved/);
    expect(() => oauthProvider({ ...options, extensions: [{ grants: { [GRANT]: handler } }, { grants: { [GRANT]: handler } }] })).toThrow(/more than once/);
    expect(() => oauthProvider({ ...options, extensions: [{ clientDiscovery: [{ id: "a", matches: () => false, resolve: () => null }, { id: "a", matches: () => false, resolve: () => null }] }] })).toThrow(/more than once/);
  });

  it("extendOAuthProvider needs the provider, adds an extension once, and refuses an overlap", () => {
    const plugin = oauthProvider(options);
    const ctx = { plugins: [plugin] };
    const extension: OAuthProviderExtension = { grants: { [GRANT]: handler } };
    extendOAuthProvider(ctx, extension);
    extendOAuthProvider(ctx, extension);
    expect(plugin.options.extensions).toHaveLength(1);
    expect(() => extendOAuthProvider(ctx, { grants: { [GRANT]: handler } })).toThrow(/more than once/);
    expect(() => extendOAuthProvider({ plugins: [] }, extension)).toThrow(/requires the oauth-provider plugin/);
  });
});
