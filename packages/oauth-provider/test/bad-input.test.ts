import { badInputBattery, type ClientAnswer } from "@latchkey/test-support";
import { describe, expect, it } from "vitest";
import { adminClient, formPost, providerInstance, REDIRECT, signedIn } from "./instance.ts";

/** Every 4xx of the provider carries an OAuth `error` (or core's `code` for input core refuses first). */
function oauthAnswer(answer: ClientAnswer): void {
  if (answer.status < 400) return;
  const body = answer.json as { error?: unknown; code?: unknown } | undefined;
  expect(typeof body?.error === "string" || typeof body?.code === "string", answer.text.slice(0, 200)).toBe(true);
}

/** Form-only routes refuse a JSON body by its media type, malformed or not. */
const FORM_ONLY = { "malformed JSON": { status: 415 } };

/** A signed-in instance with one client, so cases reach the route code (nothing may be written). */
async function ready() {
  const t = await providerInstance({ allowUnauthenticatedClientRegistration: false, allowPublicClientPrelogin: true });
  const browser = await signedIn(t);
  await adminClient(t);
  return { auth: t.auth, headers: { cookie: browser.jar.header() ?? "" }, close: () => t.close() };
}

badInputBattery({
  name: "oauth-provider routes: the battery (SQLite)",
  instance: ready,
  routes: [
    { method: "GET", path: "/oauth2/authorize", validQuery: { client_id: "x", response_type: "code", redirect_uri: REDIRECT, scope: "openid" }, nonJSON: true },
    { method: "POST", path: "/oauth2/consent", validBody: { accept: true, oauth_query: "client_id=x&sig=nope" }, nonJSON: true },
    { method: "POST", path: "/oauth2/continue", validBody: { selected: true, oauth_query: "client_id=x&sig=nope" }, nonJSON: true },
    // Registering is a write: every case carries a redirect URI a web client may not have.
    { method: "POST", path: "/oauth2/register", validBody: { redirect_uris: ["http://insecure.example/cb"], application_type: "web" }, nonJSON: true },
    { method: "POST", path: "/oauth2/create-client", validBody: { redirect_uris: ["http://insecure.example/cb"], application_type: "web" }, nonJSON: true },
    { method: "GET", path: "/oauth2/userinfo", validQuery: { x: "1" }, nonJSON: true },
    { method: "GET", path: "/oauth2/get-client", validQuery: { client_id: "nope" }, nonJSON: true },
    { method: "GET", path: "/oauth2/public-client", validQuery: { client_id: "nope" }, nonJSON: true },
    { method: "GET", path: "/oauth2/get-clients", validQuery: { x: "1" } },
    { method: "POST", path: "/oauth2/public-client-prelogin", validBody: { client_id: "nope", oauth_query: "client_id=x&sig=nope" }, nonJSON: true },
    { method: "POST", path: "/oauth2/delete-client", validBody: { client_id: "nope" }, nonJSON: true },
    { method: "POST", path: "/oauth2/update-client", validBody: { client_id: "nope", update: { client_name: "x" } }, nonJSON: true },
    { method: "POST", path: "/oauth2/client/rotate-secret", validBody: { client_id: "nope" }, nonJSON: true },
    { method: "GET", path: "/oauth2/get-consent", validQuery: { id: "nope" }, nonJSON: true },
    { method: "GET", path: "/oauth2/get-consents", validQuery: { x: "1" } },
    { method: "POST", path: "/oauth2/update-consent", validBody: { id: "nope", update: { scopes: ["openid"] } }, nonJSON: true },
    { method: "POST", path: "/oauth2/delete-consent", validBody: { id: "nope" }, nonJSON: true },
    { method: "POST", path: "/oauth2/userinfo", validBody: { access_token: "nope" }, nonJSON: true },
    // Form-only routes: every JSON case is refused by media type (415) before route code.
    { method: "POST", path: "/oauth2/token", validBody: { grant_type: "authorization_code", code: "x" }, nonJSON: true, expect: FORM_ONLY },
    { method: "POST", path: "/oauth2/introspect", validBody: { token: "x" }, nonJSON: true, expect: FORM_ONLY },
    { method: "POST", path: "/oauth2/revoke", validBody: { token: "x" }, nonJSON: true, expect: FORM_ONLY },
    // Logout: no hint and a session is never ended without the user's confirmation.
    { method: "GET", path: "/oauth2/end-session", validQuery: { client_id: "nope", state: "s" }, nonJSON: true },
    { method: "POST", path: "/oauth2/end-session", validBody: { id_token_hint: "a.b.c", client_id: "nope" }, nonJSON: true },
    { method: "POST", path: "/oauth2/end-session/confirm", validBody: { action: "confirm" }, nonJSON: true, expect: FORM_ONLY },
  ],
  expect: {
    "extra fields": { status: [302, 400, 401, 404, 415] },
    "missing field": { status: [302, 400, 401, 415] },
  },
  check: oauthAnswer,
});

describe("form routes with hostile forms: 4xx OAuth errors, nothing written", () => {
  it("token, introspect and revoke", async () => {
    const t = await providerInstance();
    try {
      const browser = await signedIn(t);
      const c = await adminClient(t);
      const basic = { id: c.client_id, secret: c.client_secret! };
      const forms: Array<Record<string, string>> = [
        {},
        { grant_type: "" },
        { grant_type: "authorization_code" },
        { grant_type: "authorization_code", code: "x".repeat(5000), code_verifier: "v" },
        { grant_type: "refresh_token", refresh_token: "\u0000\u0001" },
        { grant_type: "client_credentials", scope: "openid" },
        { grant_type: "authorization_code", code: "x", resource: "not a uri" },
        { grant_type: "authorization_code", code: "x", client_secret: "s", client_assertion: "a" },
        { grant_type: "__proto__", constructor: "x" },
      ];
      const before = await t.auth.$context.adapter.count({ model: "oauthAccessToken" });
      for (const form of forms) {
        for (const auth of [basic, undefined]) {
          const res = await formPost(browser, "/oauth2/token", form, auth);
          expect(res.status, JSON.stringify(form)).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(typeof (res.json as { error?: unknown }).error).toBe("string");
          expect(res.headers.get("cache-control")).toBe("no-store");
          for (const path of ["/oauth2/introspect", "/oauth2/revoke"]) {
            const other = await formPost(browser, path, form, auth);
            expect(other.status, `${path} ${JSON.stringify(form)}`).toBeLessThan(500);
          }
        }
      }
      const broken = await browser.request("/oauth2/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Basic !!!" },
        body: "grant_type=client_credentials",
      });
      expect([broken.status, (broken.json as { error: string }).error]).toEqual([401, "invalid_client"]);
      expect(await t.auth.$context.adapter.count({ model: "oauthAccessToken" })).toBe(before);
      expect(await t.auth.$context.adapter.count({ model: "oauthClient" })).toBe(1);
    } finally {
      await t.close();
    }
  });
});
