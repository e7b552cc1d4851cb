import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth, TestClient } from "@latchkey/test-support";
import { ada, adminClient, authorizeCode, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

describe("userinfo, introspection and revocation of opaque tokens", () => {
  let t: TestAuth;
  let browser: TestClient;
  beforeAll(async () => {
    t = await providerInstance();
    browser = await signedIn(t);
  });
  afterAll(() => t.close());

  async function tokens(scope = "openid profile email offline_access") {
    const c = await adminClient(t);
    const basic = { id: c.client_id, secret: c.client_secret! };
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge, { scope });
    const res = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, basic);
    return { c, basic, ...(res.json as { access_token: string; refresh_token: string }) };
  }
  const userinfo = (token: string) => browser.get("/oauth2/userinfo", { headers: { authorization: `Bearer ${token}` } });

  it("userinfo: sub and the claims of the granted scopes", async () => {
    const { access_token } = await tokens();
    const res = await userinfo(access_token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      sub: expect.any(String),
      name: ada.name,
      given_name: "Ada",
      family_name: "Lovelace",
      email: ada.email,
      email_verified: false,
    });
    const narrow = await tokens("openid email");
    expect(Object.keys((await userinfo(narrow.access_token)).json as object).sort()).toEqual(["email", "email_verified", "sub"]);
  });

  it("userinfo: an unknown token is 401 invalid_token with the Bearer challenge; a token in header and form is 400", async () => {
    const res = await userinfo("not-a-token");
    expect([res.status, res.json]).toEqual([401, { error: "invalid_token", error_description: "Invalid access token" }]);
    expect(res.headers.get("www-authenticate")).toBe('Bearer error="invalid_token", error_description="Invalid access token"');
    const { access_token } = await tokens();
    const both = await browser.request("/oauth2/userinfo", {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/x-www-form-urlencoded" },
      body: `access_token=${access_token}`,
    });
    expect(both.status).toBe(400);
  });

  it("introspection: active for the issuing client; inactive for another client (RFC 7662 §4)", async () => {
    const { access_token, refresh_token, basic, c } = await tokens();
    const own = await formPost(browser, "/oauth2/introspect", { token: access_token }, basic);
    expect(own.json).toMatchObject({ active: true, client_id: c.client_id, azp: c.client_id, scope: "openid profile email offline_access", token_type: "Bearer", iss: "http://localhost:3000/api/auth" });
    const refresh = await formPost(browser, "/oauth2/introspect", { token: refresh_token, token_type_hint: "refresh_token" }, basic);
    expect(refresh.json).toMatchObject({ active: true, client_id: c.client_id });
    const other = await adminClient(t);
    const foreign = await formPost(browser, "/oauth2/introspect", { token: access_token }, { id: other.client_id, secret: other.client_secret! });
    expect(foreign.json).toEqual({ active: false });
    const unknown = await formPost(browser, "/oauth2/introspect", { token: "nope" }, basic);
    expect(unknown.json).toEqual({ active: false });
    const publicCaller = await formPost(browser, "/oauth2/introspect", { token: access_token, client_id: c.client_id });
    expect([publicCaller.status, publicCaller.json]).toEqual([401, { error: "invalid_client", error_description: "missing required credentials" }]);
  });

  it("revocation: the access token stops working; revoking the refresh token ends its access tokens", async () => {
    const first = await tokens();
    expect((await formPost(browser, "/oauth2/revoke", { token: first.access_token }, first.basic)).status).toBe(200);
    expect((await userinfo(first.access_token)).status).toBe(401);
    const second = await tokens();
    expect((await formPost(browser, "/oauth2/revoke", { token: second.refresh_token, token_type_hint: "refresh_token" }, second.basic)).status).toBe(200);
    expect((await userinfo(second.access_token)).status).toBe(401);
    const refreshed = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: second.refresh_token }, second.basic);
    expect(refreshed.status).toBe(400);
  });

  it("row 110: revoking an unknown or already-revoked token answers 200 (RFC 7009 §2.2)", async () => {
    const { basic, refresh_token } = await tokens();
    const unknown = await formPost(browser, "/oauth2/revoke", { token: "no-such-token" }, basic);
    expect([unknown.status, unknown.text]).toEqual([200, "null"]);
    expect((await formPost(browser, "/oauth2/revoke", { token: refresh_token }, basic)).status).toBe(200);
    const again = await formPost(browser, "/oauth2/revoke", { token: refresh_token }, basic);
    expect(again.status).toBe(200);
  });

  it("revoking another client's token is a silent success that revokes nothing", async () => {
    const { access_token } = await tokens();
    const other = await adminClient(t);
    const res = await formPost(browser, "/oauth2/revoke", { token: access_token }, { id: other.client_id, secret: other.client_secret! });
    expect(res.status).toBe(200);
    expect((await userinfo(access_token)).status).toBe(200);
  });
});
