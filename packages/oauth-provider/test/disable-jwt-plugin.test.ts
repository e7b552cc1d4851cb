import { symmetricDecrypt } from "@latchkey/core";
import { testAuth, client, type TestAuth, type TestClient } from "@latchkey/test-support";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthProvider, type OAuthOptions } from "../src/index.ts";
import { adminClient, authorizeCode, baseOptions, formPost, pkcePair, REDIRECT, signedIn } from "./instance.ts";

/** The provider alone (no `jwt()` plugin) with `disableJwtPlugin`. */
const withoutJwt = (options: Partial<OAuthOptions> = {}) =>
  testAuth({ emailAndPassword: { enabled: true }, plugins: [oauthProvider({ ...baseOptions, disableJwtPlugin: true, ...options })] }, { db: "sqlite" });

const clientRow = (t: TestAuth, clientId: string) =>
  t.auth.$context.adapter.findOne<Record<string, unknown>>({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });

describe("disableJwtPlugin with encrypted client secrets", () => {
  let t: TestAuth;
  let browser: TestClient;
  beforeAll(async () => {
    t = await withoutJwt();
    browser = await signedIn(t);
  });
  afterAll(() => t.close());

  it("stores the secret encrypted under the auth secret (the reference's hex), and authenticates with it", async () => {
    const c = await adminClient(t);
    const stored = String((await clientRow(t, c.client_id))!.clientSecret);
    expect(stored).toMatch(/^[0-9a-f]+$/);
    expect(await symmetricDecrypt({ key: t.auth.$context.secret, data: stored })).toBe(c.client_secret);
    const wrong = await formPost(browser, "/oauth2/introspect", { token: "x" }, { id: c.client_id, secret: `${c.client_secret}x` });
    expect(wrong.status).toBe(401);
    expect((await formPost(browser, "/oauth2/introspect", { token: "x" }, { id: c.client_id, secret: c.client_secret! })).status).toBe(200);
  });

  it("ID tokens are HS256 under the client's secret, access tokens opaque; userinfo, introspection and end-session accept them", async () => {
    const c = await adminClient(t, { enable_end_session: true });
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge, { nonce: "n-1" });
    const res = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, { id: c.client_id, secret: c.client_secret! });
    expect(res.status).toBe(200);
    const tokens = res.json as { access_token: string; id_token: string };
    expect(decodeProtectedHeader(tokens.id_token)).toEqual({ alg: "HS256" });
    const { payload } = await jwtVerify(tokens.id_token, new TextEncoder().encode(c.client_secret), {
      issuer: "http://localhost:3000/api/auth",
      audience: c.client_id,
    });
    expect(payload).toMatchObject({ nonce: "n-1", acr: "0", sid: expect.any(String) });
    expect(tokens.access_token.split(".")).toHaveLength(1);
    const info = await browser.get("/oauth2/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(info.status).toBe(200);
    const introspected = await formPost(browser, "/oauth2/introspect", { token: tokens.access_token }, { id: c.client_id, secret: c.client_secret! });
    expect((introspected.json as { active: boolean }).active).toBe(true);
    // A hint signed with another key is not this client's ID token.
    const forged = await browser.get(`/oauth2/end-session?${new URLSearchParams({ id_token_hint: `${tokens.id_token.slice(0, -4)}AAAA` })}`, { headers: { accept: "application/json" } });
    expect(forged.status).toBe(401);
    const ended = await browser.get(`/oauth2/end-session?${new URLSearchParams({ id_token_hint: tokens.id_token })}`, { headers: { accept: "application/json" } });
    expect(ended.status).toBe(200);
    expect((await browser.get("/get-session")).json).toBeNull();
  });

  it("a public client gets no ID token (it has no secret to sign with)", async () => {
    const again = await signedIn(t, { email: "pub@example.com", password: "correct horse battery", name: "Pub" });
    const c = await adminClient(t, { token_endpoint_auth_method: "none" });
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(again, c.client_id, challenge);
    const res = await formPost(again, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: c.client_id });
    expect(res.status).toBe(200);
    expect(res.json).not.toHaveProperty("id_token");
    expect(res.json).toHaveProperty("access_token");
  });

  it("discovery: no jwks_uri, HS256, no back-channel logout; registering a back-channel URI is refused", async () => {
    const doc = (await client(t.auth).get("/.well-known/openid-configuration")).json as Record<string, unknown>;
    expect(doc).not.toHaveProperty("jwks_uri");
    expect(doc).toMatchObject({ issuer: "http://localhost:3000/api/auth", id_token_signing_alg_values_supported: ["HS256"], backchannel_logout_supported: false });
    const fresh = await signedIn(t, { email: "bc@example.com", password: "correct horse battery", name: "Bc" });
    const res = await fresh.post("/oauth2/create-client", { redirect_uris: [REDIRECT], backchannel_logout_uri: "https://client.example.com/bc" });
    expect([res.status, (res.json as { error_description: string }).error_description]).toEqual([400, "backchannel_logout_uri requires the jwt plugin (disableJwtPlugin must be false)"]);
  });
});

describe("storeClientSecret { encrypt, decrypt }", () => {
  it("stores what encrypt returns and signs ID tokens with what decrypt gives back", async () => {
    const t = await withoutJwt({
      storeClientSecret: { encrypt: (secret) => `enc:${[...secret].reverse().join("")}`, decrypt: (stored) => [...stored.slice(4)].reverse().join("") },
    });
    try {
      const browser = await signedIn(t);
      const c = await adminClient(t);
      expect((await clientRow(t, c.client_id))!.clientSecret).toBe(`enc:${[...c.client_secret!].reverse().join("")}`);
      const { verifier, challenge } = await pkcePair();
      const code = await authorizeCode(browser, c.client_id, challenge);
      const res = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, { id: c.client_id, secret: c.client_secret! });
      await jwtVerify((res.json as { id_token: string }).id_token, new TextEncoder().encode(c.client_secret));
    } finally {
      await t.close();
    }
  });

  it("pairings the reference refuses are TypeErrors at start-up", () => {
    expect(() => oauthProvider({ ...baseOptions, disableJwtPlugin: true, storeClientSecret: "hashed" })).toThrow("unable to store hashed secrets");
    expect(() => oauthProvider({ ...baseOptions, disableJwtPlugin: true, storeClientSecret: { hash: (s) => s } })).toThrow(TypeError);
    expect(() => oauthProvider({ ...baseOptions, storeClientSecret: "encrypted" })).toThrow("encryption method not recommended");
    expect(() => oauthProvider({ ...baseOptions, storeClientSecret: { encrypt: (s) => s, decrypt: (s) => s } })).toThrow(TypeError);
    expect(oauthProvider({ ...baseOptions, disableJwtPlugin: true }).requires).toEqual([]);
    expect(oauthProvider({ ...baseOptions, disableJwtPlugin: true }).options.storeClientSecret).toBe("encrypted");
  });
});
