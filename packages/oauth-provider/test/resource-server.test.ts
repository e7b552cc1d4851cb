import * as oauth from "oauth4webapi";
import { generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResourceServer, ResourceServerError } from "../src/resource-server.ts";
import { liveProvider, localServer, type LiveProvider } from "./live-provider.ts";

type AdminApi = { adminCreateOAuthClient(input: { body: unknown }): Promise<{ client_id: string; client_secret?: string }> };
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/**
 * A real API on 127.0.0.1 protected by the helper: `GET /reports` needs `reports:read`,
 * `POST /reports` needs `reports:write`. Tokens come from a live provider.
 */
describe("resource-server helper protecting an API over HTTP", () => {
  let provider: LiveProvider;
  let api: Awaited<ReturnType<typeof localServer>>;
  let opaqueApi: Awaited<ReturnType<typeof localServer>>;
  let as: oauth.AuthorizationServer;
  let worker: { client_id: string; client_secret?: string };
  let audience: string;

  /** An API whose handler answers the verified claims, or the helper's refusal. */
  function protect(verifier: ReturnType<typeof createResourceServer>) {
    return localServer(async (request) => {
      try {
        const scopes = request.method === "POST" ? ["reports:write"] : ["reports:read"];
        const access = await verifier.verifyRequest(request, { scopes });
        return Response.json({ client: access.clientId, scheme: access.scheme, scopes: access.scopes, jkt: access.jkt ?? null });
      } catch (error) {
        if (error instanceof ResourceServerError) return error.toResponse();
        throw error;
      }
    });
  }

  beforeAll(async () => {
    provider = await liveProvider({ scopes: ["openid", "reports:read", "reports:write"] });
    const admin = provider.auth.api as unknown as AdminApi;
    worker = await admin.adminCreateOAuthClient({ body: { grant_types: ["client_credentials"], client_credentials_scopes: ["reports:read"], redirect_uris: ["https://w.example/cb"] } });
    // JWT access tokens name the resource they were issued for (RFC 8707); today the provider's userinfo URL.
    audience = `${provider.issuer}/oauth2/userinfo`;
    api = await protect(createResourceServer({ issuer: provider.issuer, audience }));
    opaqueApi = await protect(
      createResourceServer({
        issuer: provider.issuer,
        audience: "https://reports.example/api",
        // A first-party API sharing the worker's client introspects its own tokens; an API with
        // its own client linked to a resource: resource-bound-flow.test.ts.
        introspection: { clientId: worker.client_id, clientSecret: worker.client_secret! },
        acceptTokensWithoutAudience: true,
      }),
    );
    as = await oauth.processDiscoveryResponse(new URL(provider.issuer), await oauth.discoveryRequest(new URL(provider.issuer), insecure));
  });
  afterAll(async () => {
    await api.close();
    await opaqueApi.close();
    await provider.close();
  });

  /** A `client_credentials` token for the worker; JWT with `resource`, opaque without. */
  async function token(resource?: string, DPoP?: oauth.DPoPHandle) {
    const rp: oauth.Client = { client_id: worker.client_id };
    const body = new URLSearchParams({ scope: "reports:read", ...(resource ? { resource } : {}) });
    const response = await oauth.clientCredentialsGrantRequest(as, rp, oauth.ClientSecretBasic(worker.client_secret!), body, { ...insecure, ...(DPoP ? { DPoP } : {}) });
    return oauth.processClientCredentialsResponse(as, rp, response);
  }

  it("a JWT access token verified by JWKS: 200; missing scope 403 insufficient_scope; no token 401 with the challenges", async () => {
    const { access_token } = await token(audience);
    const ok = await fetch(`${api.origin}/reports`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ client: worker.client_id, scheme: "Bearer", scopes: ["reports:read"], jkt: null });
    const write = await fetch(`${api.origin}/reports`, { method: "POST", headers: { authorization: `Bearer ${access_token}` } });
    expect(write.status).toBe(403);
    expect(write.headers.get("www-authenticate")).toBe(
      `Bearer error="insufficient_scope", error_description="access token lacks a required scope", scope="reports:write", resource_metadata="${provider.origin}/.well-known/oauth-protected-resource/api/auth/oauth2/userinfo"`,
    );
    const none = await fetch(`${api.origin}/reports`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata="[^"]+", DPoP algs="EdDSA ES256 ES512 PS256 RS256"$/);
    const tampered = await fetch(`${api.origin}/reports`, { headers: { authorization: `Bearer ${access_token.slice(0, -4)}AAAA` } });
    expect(tampered.status).toBe(401);
    expect(tampered.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
  });

  it("a JWT for another audience is refused by an API that expects its own", async () => {
    const { access_token } = await token(audience);
    const res = await fetch(`${opaqueApi.origin}/reports`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(res.status).toBe(401);
  });

  it("an opaque token verified by introspection with client credentials; revoked, it is refused", async () => {
    const { access_token } = await token();
    expect(access_token.split(".")).toHaveLength(1);
    const ok = await fetch(`${opaqueApi.origin}/reports`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(ok.status, await ok.clone().text()).toBe(200);
    await oauth.revocationRequest(as, { client_id: worker.client_id }, oauth.ClientSecretBasic(worker.client_secret!), access_token, insecure);
    const revoked = await fetch(`${opaqueApi.origin}/reports`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ error: "invalid_token", error_description: "access token invalid" });
  });

  it("a DPoP-bound token: oauth4webapi's proof (htm, htu, ath) accepted; Bearer scheme, replay, wrong URL and wrong key refused with DPoP challenges", async () => {
    const keys = await generateKeyPair("ES256", { extractable: true });
    const rp: oauth.Client = { client_id: worker.client_id };
    const DPoP = oauth.DPoP(rp, keys);
    const { access_token, token_type } = await token(audience, DPoP);
    expect(token_type).toBe("dpop");
    const res = await oauth.protectedResourceRequest(access_token, "GET", new URL(`${api.origin}/reports`), undefined, undefined, { DPoP, ...insecure });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { scheme: string; jkt: string }).scheme).toBe("DPoP");

    const asBearer = await fetch(`${api.origin}/reports`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_token", error_description="DPoP-bound access token requires the DPoP authorization scheme"/);

    // Capture one proof and send it twice: the second is a replay.
    let captured = "";
    const capture = await localServer((request) => {
      captured = request.headers.get("dpop") ?? "";
      return new Response("{}", { headers: { "content-type": "application/json" } });
    });
    await oauth.protectedResourceRequest(access_token, "GET", new URL(`${capture.origin}/reports`), undefined, undefined, { DPoP, ...insecure });
    await capture.close();
    const wrongUrl = await fetch(`${api.origin}/reports`, { headers: { authorization: `DPoP ${access_token}`, dpop: captured } });
    expect(await wrongUrl.json()).toEqual({ error: "invalid_dpop_proof", error_description: "DPoP proof htu does not match the request URL" });
    expect(wrongUrl.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_dpop_proof".*algs="EdDSA ES256 ES512 PS256 RS256"$/);

    const ok = await oauth.protectedResourceRequest(access_token, "GET", new URL(`${api.origin}/reports`), undefined, undefined, { DPoP, ...insecure });
    expect(ok.status).toBe(200);
    const other = oauth.DPoP(rp, await generateKeyPair("ES256", { extractable: true }));
    // oauth4webapi reads the DPoP challenge of the 401 and throws it.
    await expect(
      oauth.protectedResourceRequest(access_token, "GET", new URL(`${api.origin}/reports`), undefined, undefined, { DPoP: other, ...insecure }),
    ).rejects.toMatchObject({ cause: [{ scheme: "dpop", parameters: { error: "invalid_dpop_proof", error_description: "DPoP proof key does not match the bound token" } }] });
  });

  it("a replayed proof is refused", async () => {
    const keys = await generateKeyPair("ES256", { extractable: true });
    const rp: oauth.Client = { client_id: worker.client_id };
    const DPoP = oauth.DPoP(rp, keys);
    const { access_token } = await token(audience, DPoP);
    let proof = "";
    const first = await oauth.protectedResourceRequest(access_token, "GET", new URL(`${api.origin}/reports`), undefined, undefined, {
      DPoP,
      ...insecure,
      [oauth.customFetch]: (url, init) => {
        proof = new Headers(init.headers).get("dpop") ?? "";
        return fetch(url, init as RequestInit);
      },
    });
    expect(first.status).toBe(200);
    const replay = await fetch(`${api.origin}/reports`, { headers: { authorization: `DPoP ${access_token}`, dpop: proof } });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ error: "invalid_dpop_proof", error_description: "DPoP proof jti has already been used" });
  });
});

describe("RFC 9728 protected-resource metadata served by the API", () => {
  it("the challenge's resource_metadata URL answers the metadata, which oauth4webapi validates", async () => {
    let origin = "";
    const server = await localServer((request) => {
      const verifier = createResourceServer({ issuer: "https://auth.example/api/auth", audience: `${origin}/v1/reports`, metadata: { scopes_supported: ["reports:read"] } });
      return verifier.metadataResponse(request) ?? verifier.verifyRequest(request).then(
        () => new Response("ok"),
        (error: ResourceServerError) => error.toResponse(),
      );
    });
    origin = server.origin;
    try {
      const refused = await fetch(`${origin}/v1/reports`);
      const pointer = /resource_metadata="([^"]+)"/.exec(refused.headers.get("www-authenticate") ?? "")?.[1];
      expect(pointer).toBe(`${origin}/.well-known/oauth-protected-resource/v1/reports`);
      const resource = new URL(`${origin}/v1/reports`);
      const document = await oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, insecure));
      expect(document).toEqual({
        resource: resource.href,
        authorization_servers: ["https://auth.example/api/auth"],
        bearer_methods_supported: ["header"],
        dpop_signing_alg_values_supported: ["EdDSA", "ES256", "ES512", "PS256", "RS256"],
        scopes_supported: ["reports:read"],
      });
      expect((await fetch(pointer!, { method: "POST" })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});

describe("resource-server entry point", () => {
  it("imports nothing of Latchkey's server (jose only), so an API can use it alone", async () => {
    const { readFile } = await import("node:fs/promises");
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = await readFile(new URL(`../src/${file}`, import.meta.url), "utf8");
      for (const [, spec] of text.matchAll(/from "([^"]+)"/g)) {
        if (spec!.startsWith("./")) await visit(spec!.slice(2).replace(/\.js$/, ".ts"));
        else external.add(spec!);
      }
    };
    await visit("resource-server.ts");
    expect([...external]).toEqual(["jose"]);
    expect([...seen].sort()).toEqual(["dpop-proof.ts", "resource-challenge.ts", "resource-server.ts"]);
  });
});
