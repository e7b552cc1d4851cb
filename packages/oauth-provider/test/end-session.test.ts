import { client, type TestAuth, type TestClient } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, authorizeCode, formPost, pkcePair, providerInstance, REDIRECT } from "./instance.ts";

// OIDC RP-Initiated Logout 1.0 through /oauth2/end-session and its confirm step.
const LOGGED_OUT = "https://client.example.com/logged-out";
const HTML = { accept: "text/html", "sec-fetch-mode": "navigate" };
let t: TestAuth;
beforeAll(async () => {
  t = await providerInstance();
});
afterAll(() => t.close());

let users = 0;
async function signedInBrowser(): Promise<TestClient> {
  const c = client(t.auth);
  const res = await c.post("/sign-up/email", { email: `u${++users}@example.com`, password: "correct horse battery", name: "U" });
  expect(res.status).toBe(200);
  return c;
}

/** A browser with a session and the ID token a logout-enabled client got for it. */
async function session(extra: Record<string, unknown> = {}) {
  const browser = await signedInBrowser();
  const c = await adminClient(t, { enable_end_session: true, post_logout_redirect_uris: [LOGGED_OUT], ...extra });
  const { verifier, challenge } = await pkcePair();
  const code = await authorizeCode(browser, c.client_id, challenge);
  const tokens = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, { id: c.client_id, secret: c.client_secret! });
  expect(tokens.status).toBe(200);
  const { id_token, access_token } = tokens.json as { id_token: string; access_token: string };
  const sid = JSON.parse(Buffer.from(id_token.split(".")[1]!, "base64url").toString()).sid as string;
  return { browser, c, idToken: id_token, accessToken: access_token, sid };
}
const sessionRow = (id: string) => t.auth.$context.adapter.findOne({ model: "session", where: [{ field: "id", value: id }] });
const query = (params: Record<string, string>) => `/oauth2/end-session?${new URLSearchParams(params)}`;

describe("end-session with a valid id_token_hint", () => {
  it("ends the hinted session, clears the cookie and redirects to the registered URI with state", async () => {
    const s = await session();
    expect(s.sid).toBeTruthy();
    const res = await s.browser.get(query({ id_token_hint: s.idToken, post_logout_redirect_uri: LOGGED_OUT, state: "bye" }), { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${LOGGED_OUT}?state=bye`);
    expect(await sessionRow(s.sid)).toBeNull();
    expect((await s.browser.get("/get-session")).json).toBeNull();
  });

  it("POST (form) from the RP's back end without the browser: ends the session, answers null", async () => {
    const s = await session();
    const res = await formPost(client(t.auth), "/oauth2/end-session", { id_token_hint: s.idToken });
    expect([res.status, res.json, res.headers.get("cache-control")]).toEqual([200, null, "no-store"]);
    expect(await sessionRow(s.sid)).toBeNull();
  });

  it("a script asking JSON gets { redirect, url }", async () => {
    const s = await session();
    const res = await s.browser.get(query({ id_token_hint: s.idToken, post_logout_redirect_uri: LOGGED_OUT }), { headers: { accept: "application/json" } });
    expect(res.json).toEqual({ redirect: true, url: LOGGED_OUT });
  });

  it("an unregistered or merely similar post_logout_redirect_uri is never followed (exact match)", async () => {
    for (const uri of [`${LOGGED_OUT}/`, `${LOGGED_OUT}?x=1`, "https://evil.example/logged-out", LOGGED_OUT.toUpperCase()]) {
      const s = await session();
      const res = await s.browser.get(query({ id_token_hint: s.idToken, post_logout_redirect_uri: uri }), { redirect: "manual", headers: HTML });
      expect(res.status).toBe(200);
      expect(res.headers.get("location")).toBeNull();
      expect(res.text).toContain("The requested post-logout redirect was not registered.");
      expect(await sessionRow(s.sid)).toBeNull();
    }
  });

  it("an expired ID token still serves as hint (RP-Initiated Logout §2)", async () => {
    const s = await session();
    const { JWT_SIGNER } = await import("@latchkey/jwt");
    const { getService } = await import("@latchkey/core");
    const claims = JSON.parse(Buffer.from(s.idToken.split(".")[1]!, "base64url").toString());
    const ctx = await t.auth.$context;
    const expired = await getService(ctx, JWT_SIGNER).sign({ ...claims, iat: claims.iat - 7200, exp: claims.iat - 3600 });
    const res = await formPost(client(t.auth), "/oauth2/end-session", { id_token_hint: expired });
    expect(res.status).toBe(200);
    expect(await sessionRow(s.sid)).toBeNull();
  });
});

describe("end-session refusals", () => {
  it("a forged or foreign hint is 401 invalid_token and ends nothing", async () => {
    const s = await session();
    const [h, p, sig] = s.idToken.split(".");
    const forged = `${h}.${p}.${sig!.slice(0, -4)}AAAA`;
    const res = await formPost(client(t.auth), "/oauth2/end-session", { id_token_hint: forged });
    expect([res.status, res.json]).toEqual([401, { error: "invalid_token", error_description: "The id_token_hint is invalid" }]);
    const other = await adminClient(t, { enable_end_session: true });
    const foreign = await formPost(client(t.auth), "/oauth2/end-session", { id_token_hint: s.idToken, client_id: other.client_id });
    expect(foreign.status).toBe(401);
    expect(await sessionRow(s.sid)).not.toBeNull();
  });

  it("a client without enable_end_session is 401 invalid_client; an unknown one 400", async () => {
    const s = await session({ enable_end_session: false });
    const res = await formPost(client(t.auth), "/oauth2/end-session", { id_token_hint: s.idToken });
    expect([res.status, res.json]).toEqual([401, { error: "invalid_client", error_description: "The client is not allowed to initiate logout" }]);
    const unknown = await formPost(client(t.auth), "/oauth2/end-session", { client_id: "nope" });
    expect([unknown.status, unknown.json]).toEqual([400, { error: "invalid_client", error_description: "The logout client does not exist" }]);
    // Such a client's ID tokens carry no `sid`; the browser's session lives on.
    expect(s.sid).toBeUndefined();
    expect((await s.browser.get("/get-session")).json).not.toBeNull();
  });

  it("repeated members and a non-URL redirect are invalid_request", async () => {
    const res = await client(t.auth).request("/oauth2/end-session", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "state=a&state=b" });
    expect([res.status, res.json]).toEqual([400, { error: "invalid_request", error_description: "state must not be repeated" }]);
    const bad = await client(t.auth).get(query({ post_logout_redirect_uri: "javascript:alert(1)" }));
    expect([bad.status, (bad.json as { error: string }).error]).toEqual([400, "invalid_request"]);
  });
});

describe("the confirmation step", () => {
  it("without a hint a browser is asked to confirm; confirming ends the session and redirects", async () => {
    const s = await session();
    const page = await s.browser.get(query({ client_id: s.c.client_id, post_logout_redirect_uri: LOGGED_OUT, state: "s1" }), { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.text).toContain('action="http://localhost:3000/api/auth/oauth2/end-session/confirm"');
    expect(await sessionRow(s.sid)).not.toBeNull();
    const confirmed = await s.browser.request("/oauth2/end-session/confirm", {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:3000", ...HTML },
      body: "action=confirm",
    });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`${LOGGED_OUT}?state=s1`);
    expect(await sessionRow(s.sid)).toBeNull();
  });

  it("a script without a hint is told confirmation is required; nothing ends", async () => {
    const s = await session();
    const res = await s.browser.get(query({}));
    expect([res.status, res.json]).toEqual([400, { error: "invalid_request", error_description: "User confirmation is required to complete logout" }]);
    expect(await sessionRow(s.sid)).not.toBeNull();
  });

  it("a hint for another session than the browser's asks the browser to confirm", async () => {
    const a = await session();
    const b = await session();
    const res = await a.browser.get(query({ id_token_hint: b.idToken }), { headers: HTML });
    expect(res.text).toContain("Confirm logout");
    expect(await sessionRow(a.sid)).not.toBeNull();
    expect(await sessionRow(b.sid)).not.toBeNull();
  });

  it("confirm without the signed confirmation cookie (or with a forged one) is refused", async () => {
    const s = await session();
    const post = () =>
      s.browser.request("/oauth2/end-session/confirm", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:3000" },
        body: "action=confirm",
      });
    expect([(await post()).status, (await post()).json]).toEqual([400, { error: "invalid_request", error_description: "The logout confirmation is invalid or expired" }]);
    s.browser.jar.values.set("better-auth.session_token.oauth_logout_confirmation", encodeURIComponent(JSON.stringify({ expiresAt: Date.now() + 60_000 })));
    expect((await post()).status).toBe(400);
    expect(await sessionRow(s.sid)).not.toBeNull();
  });
});
