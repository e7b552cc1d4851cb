import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth, TestClient } from "@latchkey/test-support";
import { oauthProvider } from "../src/index.ts";
import { adminClient, authorizeCode, baseOptions, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const SCOPES = ["openid", "profile", "email", "offline_access", "write:payments", "read:payments"];

/** A reversible wrapping standing in for JWE: the stored token and session id, base64url JSON. */
const wrap = {
  encrypt: (token: string, sessionId?: string) => `wrapped.${Buffer.from(JSON.stringify({ token, sessionId })).toString("base64url")}`,
  decrypt: (value: string) => {
    if (!value.startsWith("wrapped.")) throw new Error("not ours");
    return JSON.parse(Buffer.from(value.slice(8), "base64url").toString()) as { token: string; sessionId?: string };
  },
};

describe("scopeExpirations, formatRefreshToken, clientRegistrationClientSecretExpiration", () => {
  let t: TestAuth;
  let browser: TestClient;
  beforeAll(async () => {
    t = await providerInstance({
      scopes: SCOPES,
      scopeExpirations: { "write:payments": "5m", "read:payments": "30m" },
      formatRefreshToken: wrap,
      prefix: { refreshToken: "rt_" },
      clientRegistrationClientSecretExpiration: "1d",
    });
    browser = await signedIn(t);
  });
  afterAll(() => t.close());

  const tokens = async (scope: string) => {
    const c = await adminClient(t, { scope: SCOPES.join(" ") });
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge, { scope });
    const res = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, { id: c.client_id, secret: c.client_secret! });
    expect(res.status, res.text).toBe(200);
    return { c, body: res.json as { access_token: string; refresh_token: string; expires_in: number; expires_at: number } };
  };

  it("the earliest scope expiration among the granted scopes bounds the access token; the stored row agrees", async () => {
    const short = await tokens("openid offline_access write:payments read:payments");
    expect(short.body.expires_in).toBe(300);
    const medium = await tokens("openid offline_access read:payments");
    expect(medium.body.expires_in).toBe(1800);
    const plain = await tokens("openid offline_access");
    expect(plain.body.expires_in).toBe(3600);
    const introspected = await formPost(browser, "/oauth2/introspect", { token: short.body.access_token }, { id: short.c.client_id, secret: short.c.client_secret! });
    expect((introspected.json as { exp: number }).exp).toBe(short.body.expires_at);
  });

  it("refresh tokens are handed out formatted (prefix outside) and read back at refresh, introspection and revocation", async () => {
    const { c, body } = await tokens("openid offline_access");
    expect(body.refresh_token.startsWith("rt_wrapped.")).toBe(true);
    const inner = wrap.decrypt(body.refresh_token.slice(3));
    expect(inner.sessionId).toEqual(expect.any(String));
    const basic = { id: c.client_id, secret: c.client_secret! };
    const active = await formPost(browser, "/oauth2/introspect", { token: body.refresh_token, token_type_hint: "refresh_token" }, basic);
    expect((active.json as { active: boolean }).active).toBe(true);
    // Without the wrapping, or with a wrapping that does not decode, the token is unknown (never a 500).
    for (const token of [`rt_${inner.token}`, "rt_wrapped.!!", "wrapped.x"]) {
      const res = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: token }, basic);
      expect(res.status, token).toBe(400);
    }
    const refreshed = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: body.refresh_token }, basic);
    expect(refreshed.status).toBe(200);
    const next = (refreshed.json as { refresh_token: string }).refresh_token;
    expect(next.startsWith("rt_wrapped.")).toBe(true);
    expect((await formPost(browser, "/oauth2/revoke", { token: next, token_type_hint: "refresh_token" }, basic)).status).toBe(200);
    const revoked = await formPost(browser, "/oauth2/introspect", { token: next, token_type_hint: "refresh_token" }, basic);
    expect((revoked.json as { active: boolean }).active).toBe(false);
  });

  it("a dynamic registration advertises client_secret_expires_at; a managed one 0, a public one none", async () => {
    const before = Math.floor(Date.now() / 1000);
    const dynamic = (await browser.post("/oauth2/register", { redirect_uris: [REDIRECT] })).json as Record<string, number>;
    expect(dynamic.client_secret_expires_at).toBeGreaterThanOrEqual(before + 86_400 - 1);
    expect(dynamic.client_secret_expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 86_400);
    const managed = (await browser.post("/oauth2/create-client", { redirect_uris: [REDIRECT] })).json as Record<string, number>;
    expect(managed.client_secret_expires_at).toBe(0);
    const pub = (await browser.post("/oauth2/register", { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" })).json as Record<string, unknown>;
    expect(pub).not.toHaveProperty("client_secret_expires_at");
  });

  it("misconfigured durations and formats are TypeErrors at start-up", () => {
    expect(() => oauthProvider({ ...baseOptions, scopeExpirations: { openid: "soon" } })).toThrow(TypeError);
    expect(() => oauthProvider({ ...baseOptions, clientRegistrationClientSecretExpiration: "5 fortnights" })).toThrow(TypeError);
    expect(() => oauthProvider({ ...baseOptions, formatRefreshToken: { encrypt: (x: string) => x } as never })).toThrow(TypeError);
  });
});
