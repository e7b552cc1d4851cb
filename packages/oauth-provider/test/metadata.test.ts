import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type TestAuth } from "@latchkey/test-support";
import { api, providerInstance } from "./instance.ts";

const ORIGIN = "http://localhost:3000";
const ISSUER = `${ORIGIN}/api/auth`;
const CACHE = "public, max-age=15, stale-while-revalidate=15, stale-if-error=86400";

describe("discovery", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance();
  });
  afterAll(() => t.close());

  const get = (path: string, method = "GET") => t.auth.handler(new Request(`${ORIGIN}${path}`, { method }));

  it("serves the OpenID document at <issuer>/.well-known/openid-configuration with the reference's members", async () => {
    const res = await get("/api/auth/.well-known/openid-configuration");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(CACHE);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/authorize`,
      token_endpoint: `${ISSUER}/oauth2/token`,
      jwks_uri: `${ISSUER}/jwks`,
      registration_endpoint: `${ISSUER}/oauth2/register`,
      introspection_endpoint: `${ISSUER}/oauth2/introspect`,
      revocation_endpoint: `${ISSUER}/oauth2/revoke`,
      userinfo_endpoint: `${ISSUER}/oauth2/userinfo`,
      scopes_supported: ["openid", "profile", "email", "offline_access"],
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "client_credentials", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["EdDSA"],
      claims_supported: ["sub", "iss", "aud", "exp", "iat", "sid", "scope", "azp", "name", "picture", "given_name", "family_name", "email", "email_verified"],
    });
  });

  it("serves RFC 8414 §3.1 path-inserted and appended authorization-server metadata, the same document", async () => {
    const inserted = await get("/.well-known/oauth-authorization-server/api/auth");
    const appended = await get("/api/auth/.well-known/oauth-authorization-server");
    expect([inserted.status, appended.status]).toEqual([200, 200]);
    const openid = await (await get("/api/auth/.well-known/openid-configuration")).json();
    expect(await inserted.json()).toEqual(openid);
    expect(await appended.json()).toEqual(openid);
  });

  it("HEAD answers headers only; other methods 405 with Allow", async () => {
    const head = await get("/api/auth/.well-known/openid-configuration", "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await get("/api/auth/.well-known/openid-configuration", "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("auth.api.getOpenIdConfig and getOAuthServerConfig give the same documents", async () => {
    const served = await (await get("/api/auth/.well-known/openid-configuration")).json();
    expect(await api(t).getOpenIdConfig({})).toEqual(served);
    expect(await api(t).getOAuthServerConfig({})).toEqual(served);
    expect((await client(t.auth).get("/.well-known/openid-configuration")).status).toBe(200);
  });
});

describe("discovery without openid, without registration", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({ scopes: ["read", "write"], allowDynamicClientRegistration: false });
  });
  afterAll(() => t.close());

  it("no OpenID document; the AS document has no OpenID members and no registration endpoint", async () => {
    const openid = await t.auth.handler(new Request(`${ORIGIN}/api/auth/.well-known/openid-configuration`));
    expect(openid.status).toBe(404);
    const doc = (await (await t.auth.handler(new Request(`${ORIGIN}/.well-known/oauth-authorization-server/api/auth`))).json()) as Record<string, unknown>;
    expect(doc.scopes_supported).toEqual(["read", "write"]);
    expect(doc).not.toHaveProperty("userinfo_endpoint");
    expect(doc).not.toHaveProperty("registration_endpoint");
    await expect(api(t).getOpenIdConfig({})).rejects.toMatchObject({ status: 404 });
  });
});
