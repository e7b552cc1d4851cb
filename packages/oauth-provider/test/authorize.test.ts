import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type TestAuth } from "@latchkey/test-support";
import { adminClient, authorizeQuery, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const ISSUER = "http://localhost:3000/api/auth";

describe("GET /oauth2/authorize", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance();
  });
  afterAll(() => t.close());

  const location = async (c: ReturnType<typeof client>, query: string) => {
    const res = await c.get(`/oauth2/authorize?${query}`, { redirect: "manual" });
    expect(res.status, res.text).toBe(302);
    return new URL(res.headers.get("location")!, "http://relative.invalid");
  };

  it("without a session: the login page with the signed request", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const to = await location(client(t.auth), authorizeQuery(c.client_id, challenge));
    expect(to.pathname).toBe("/login");
    expect(to.searchParams.get("client_id")).toBe(c.client_id);
    expect(to.searchParams.get("sig")).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(to.searchParams.getAll("ba_param")).toContain("client_id");
  });

  it("prompt=none without a session: login_required at the client, with state and iss", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const to = await location(client(t.auth), authorizeQuery(c.client_id, challenge, { prompt: "none" }));
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(to.searchParams)).toEqual({
      error: "login_required",
      error_description: "authentication required",
      state: "st-1",
      iss: ISSUER,
    });
  });

  it("an unregistered redirect URI or unknown client goes to the error page, never to the URI", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const browser = await signedIn(t, { email: "eve@example.com", password: "correct horse battery", name: "Eve" });
    const wrong = await location(browser, authorizeQuery(c.client_id, challenge, { redirect_uri: "https://evil.example/cb" }));
    expect(`${wrong.origin}${wrong.pathname}`).toBe(`${ISSUER}/error`);
    expect(wrong.searchParams.get("error")).toBe("invalid_redirect");
    const unknown = await location(browser, authorizeQuery("no-such-client", challenge));
    expect(unknown.searchParams.get("error")).toBe("invalid_client");
  });

  it("a native client's loopback redirect matches on any port (RFC 8252 §7.3), nothing else varies", async () => {
    const c = await adminClient(t, { redirect_uris: ["http://127.0.0.1/callback"], application_type: "native" });
    const { challenge } = await pkcePair();
    const browser = await signedIn(t, { email: "lo@example.com", password: "correct horse battery", name: "Lo" });
    const ok = await location(browser, authorizeQuery(c.client_id, challenge, { redirect_uri: "http://127.0.0.1:53111/callback" }));
    expect(`${ok.origin}${ok.pathname}`).toBe("http://127.0.0.1:53111/callback");
    expect(ok.searchParams.get("code")).toMatch(/^[A-Za-z0-9]{32}$/);
    for (const other of ["http://127.0.0.1:53111/other", "http://localhost:53111/callback", "http://127.0.0.1:53111/callback#x"]) {
      const refused = await location(browser, authorizeQuery(c.client_id, challenge, { redirect_uri: other }));
      expect(refused.searchParams.get("error"), other).toBe("invalid_redirect");
    }
  });

  it("prompt=none without consent: consent_required at the client", async () => {
    const c = await adminClient(t, { skip_consent: false });
    const { challenge } = await pkcePair();
    const browser = await signedIn(t, { email: "pn@example.com", password: "correct horse battery", name: "Pn" });
    const to = await location(browser, authorizeQuery(c.client_id, challenge, { prompt: "none" }));
    expect(Object.fromEntries(to.searchParams)).toEqual({ error: "consent_required", error_description: "End-User consent is required", state: "st-1", iss: ISSUER });
  });

  it("PKCE is required (S256 only); missing → invalid_request at the client", async () => {
    const c = await adminClient(t);
    const browser = await signedIn(t, { email: "pk@example.com", password: "correct horse battery", name: "Pk" });
    const query = new URLSearchParams({ response_type: "code", client_id: c.client_id, redirect_uri: REDIRECT, scope: "openid", state: "s" });
    const missing = await location(browser, query.toString());
    expect(missing.searchParams.get("error")).toBe("invalid_request");
    expect(missing.searchParams.get("error_description")).toBe("pkce is required for this client");
    query.set("code_challenge", "x".repeat(43));
    query.set("code_challenge_method", "plain");
    const plain = await location(browser, query.toString());
    expect(plain.searchParams.get("error")).toBe("invalid_request");
  });

  it("a scope the client may not use: invalid_scope at the client", async () => {
    const c = await adminClient(t, { scope: "openid" });
    const { challenge } = await pkcePair();
    const browser = await signedIn(t, { email: "sc@example.com", password: "correct horse battery", name: "Sc" });
    const to = await location(browser, authorizeQuery(c.client_id, challenge, { scope: "openid email" }));
    expect(to.searchParams.get("error")).toBe("invalid_scope");
    expect(to.searchParams.get("error_description")).toBe("The following scopes are invalid: email");
  });

  it("consent: the consent page, then POST /oauth2/consent issues the code; a second authorize skips the page", async () => {
    const c = await adminClient(t, { skip_consent: false });
    const { challenge } = await pkcePair();
    const browser = await signedIn(t, { email: "co@example.com", password: "correct horse battery", name: "Co" });
    const page = await location(browser, authorizeQuery(c.client_id, challenge));
    expect(page.pathname).toBe("/consent");
    const accepted = await browser.post("/oauth2/consent", { accept: true, oauth_query: page.search.slice(1) });
    expect(accepted.status).toBe(200);
    const url = new URL((accepted.json as { url: string }).url);
    expect(url.searchParams.get("code")).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(url.searchParams.get("iss")).toBe(ISSUER);
    const again = await location(browser, authorizeQuery(c.client_id, challenge));
    expect(again.searchParams.get("code")).toMatch(/^[A-Za-z0-9]{32}$/);
    const consents = await t.auth.$context.adapter.findMany({ model: "oauthConsent", where: [{ field: "clientId", value: c.client_id }] });
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({ scopes: ["openid", "profile", "email", "offline_access"] });
  });

  it("consent denied: access_denied back to the client; a forged oauth_query is refused", async () => {
    const c = await adminClient(t, { skip_consent: false });
    const { challenge } = await pkcePair();
    const browser = await signedIn(t, { email: "de@example.com", password: "correct horse battery", name: "De" });
    const page = await location(browser, authorizeQuery(c.client_id, challenge));
    const denied = await browser.post("/oauth2/consent", { accept: false, oauth_query: page.search.slice(1) });
    const url = new URL((denied.json as { url: string }).url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ error: "access_denied", error_description: "User denied access", state: "st-1", iss: ISSUER });
    const forged = new URLSearchParams(page.search);
    forged.set("redirect_uri", "https://evil.example/cb");
    const refused = await browser.post("/oauth2/consent", { accept: true, oauth_query: forged.toString() });
    expect([refused.status, refused.json]).toEqual([400, { error: "invalid_signature" }]);
  });

  it("prompt=consent shows the consent page even for a consented client; prompt=login the login page", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const browser = await signedIn(t, { email: "pr@example.com", password: "correct horse battery", name: "Pr" });
    expect((await location(browser, authorizeQuery(c.client_id, challenge, { prompt: "consent" }))).pathname).toBe("/consent");
    expect((await location(browser, authorizeQuery(c.client_id, challenge, { prompt: "login" }))).pathname).toBe("/login");
  });

  it("a fetch (Sec-Fetch-Mode: cors) gets { redirect: true, url } instead of a 302", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const res = await client(t.auth).get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { headers: { "sec-fetch-mode": "cors" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ redirect: true, url: expect.stringMatching(/^\/login\?/) });
  });
});

describe("the login page resumes the authorization", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance();
  });
  afterAll(() => t.close());

  it("sign-in with the signed oauth_query answers with the client's redirect (code) instead of the session", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    await signedIn(t); // Ada exists
    const browser = client(t.auth);
    const res = await browser.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { redirect: "manual" });
    const login = new URL(res.headers.get("location")!, "http://relative.invalid");
    expect(login.pathname).toBe("/login");
    const signIn = await browser.post("/sign-in/email", { email: "ada@example.com", password: "correct horse battery", oauth_query: login.search.slice(1) });
    expect(signIn.status).toBe(200);
    const url = new URL((signIn.json as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(url.searchParams.get("code")).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(signIn.headers.getSetCookie().some((line) => line.startsWith("better-auth.session_token="))).toBe(true);
  });

  it("a tampered oauth_query on sign-in is 400 invalid_signature and signs nobody in", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const browser = client(t.auth);
    const res = await browser.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { redirect: "manual" });
    const login = new URL(res.headers.get("location")!, "http://relative.invalid");
    const forged = new URLSearchParams(login.search);
    forged.set("scope", "openid");
    const signIn = await browser.post("/sign-in/email", { email: "ada@example.com", password: "correct horse battery", oauth_query: forged.toString() });
    expect([signIn.status, signIn.json]).toEqual([400, { error: "invalid_signature" }]);
    expect(signIn.headers.getSetCookie()).toEqual([]);
  });
});

describe("POST /oauth2/authorize, max_age and rate limits", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({ rateLimit: { authorize: { window: 60, max: 3 } } }, "sqlite", { rateLimit: { enabled: true } });
  });
  afterAll(() => t.close());

  it("a form POST authorizes like a GET (OIDC Core §3.1.2.1)", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const browser = await signedIn(t);
    const res = await browser.request("/oauth2/authorize", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: authorizeQuery(c.client_id, challenge),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it("max_age=0 sends a signed-in user to the login page again; a fourth request in the window is 429", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const browser = await signedIn(t, { email: "ma@example.com", password: "correct horse battery", name: "Ma" });
    const res = await browser.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge, { max_age: "0" })}`, { redirect: "manual" });
    expect(new URL(res.headers.get("location")!, "http://x").pathname).toBe("/login");
    const again = await browser.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { redirect: "manual" });
    expect(again.status).toBe(302);
    const limited = await browser.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { redirect: "manual" });
    expect(limited.status).toBe(429);
  });
});
