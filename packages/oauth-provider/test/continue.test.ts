import type { TestAuth, TestClient } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, authorizeQuery, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

// selectAccount, signup and postLogin steps and `/oauth2/continue`, as the reference serves them.
const flags = { select: false, signup: false as boolean | string, postLogin: false };
let t: TestAuth;
let browser: TestClient;
beforeAll(async () => {
  t = await providerInstance({
    selectAccount: { page: "/select-account", shouldRedirect: () => flags.select },
    signup: { page: "/sign-up-steps", shouldRedirect: () => flags.signup },
    postLogin: { page: "/choose-org", shouldRedirect: () => flags.postLogin, consentReferenceId: () => "org-42" },
  });
  browser = await signedIn(t);
});
afterAll(() => t.close());

async function start(extra: Record<string, string> = {}, clientExtra: Record<string, unknown> = {}) {
  const c = await adminClient(t, clientExtra);
  const { verifier, challenge } = await pkcePair();
  const res = await browser.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge, extra)}`, { redirect: "manual" });
  return { c, verifier, location: new URL(res.headers.get("location")!, "http://localhost:3000") };
}
const cont = (body: Record<string, unknown>) => browser.post("/oauth2/continue", body, { headers: { origin: "http://localhost:3000" } });

describe("/oauth2/continue", () => {
  it("select_account: the page gets the signed request; continue with selected resumes to the code", async () => {
    const { location } = await start({ prompt: "select_account" });
    expect(location.pathname).toBe("/select-account");
    const done = await cont({ selected: true, oauth_query: location.search.slice(1) });
    expect(done.status).toBe(200);
    const url = new URL((done.json as { url: string }).url);
    expect([url.origin + url.pathname, url.searchParams.get("state")]).toEqual([REDIRECT, "st-1"]);
    expect(url.searchParams.get("code")).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it("selectAccount.shouldRedirect sends to the page; with prompt=none it is account_selection_required", async () => {
    flags.select = true;
    try {
      expect((await start()).location.pathname).toBe("/select-account");
      const none = (await start({ prompt: "none" })).location;
      expect([none.origin + none.pathname, none.searchParams.get("error")]).toEqual([REDIRECT, "account_selection_required"]);
    } finally {
      flags.select = false;
    }
  });

  it("signup steps: the page named by shouldRedirect; continue with created resumes", async () => {
    flags.signup = "/onboarding";
    const { location } = await start();
    expect(location.pathname).toBe("/onboarding");
    flags.signup = false;
    const done = await cont({ created: true, oauth_query: location.search.slice(1) });
    expect(new URL((done.json as { url: string }).url).searchParams.get("code")).toBeTruthy();
  });

  it("postLogin: the page, then continue; the grant carries consentReferenceId", async () => {
    flags.postLogin = true;
    const { c, verifier, location } = await start();
    expect(location.pathname).toBe("/choose-org");
    flags.postLogin = false;
    const done = await cont({ postLogin: true, oauth_query: location.search.slice(1) });
    const code = new URL((done.json as { url: string }).url).searchParams.get("code")!;
    const tokens = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, { id: c.client_id, secret: c.client_secret! });
    expect(tokens.status).toBe(200);
    const row = await t.auth.$context.adapter.findOne<{ referenceId: string }>({ model: "oauthAccessToken", where: [{ field: "clientId", value: c.client_id }] });
    expect(row?.referenceId).toBe("org-42");
  });

  it("the consent page's answer skips a post-login step already done for the session (signed ba_pl)", async () => {
    flags.postLogin = false;
    const { location } = await start({}, { skip_consent: false });
    expect(location.pathname).toBe("/consent");
    const session = (await browser.get("/get-session")).json as { session: { id: string } };
    expect(location.searchParams.get("ba_pl")).toBe(session.session.id);
    flags.postLogin = true;
    try {
      const accepted = await browser.post("/oauth2/consent", { accept: true, oauth_query: location.search.slice(1) }, { headers: { origin: "http://localhost:3000" } });
      expect(new URL((accepted.json as { url: string }).url).searchParams.get("code")).toBeTruthy();
    } finally {
      flags.postLogin = false;
    }
  });

  it("refusals: no step flag, a tampered query, no session", async () => {
    const { location } = await start({ prompt: "select_account" });
    const query = location.search.slice(1);
    expect([(await cont({ oauth_query: query })).status, (await cont({ oauth_query: query })).json]).toEqual([400, { error: "invalid_request", error_description: "Missing parameters" }]);
    const tampered = await cont({ selected: true, oauth_query: query.replace("st-1", "st-2") });
    expect([tampered.status, tampered.json]).toEqual([400, { error: "invalid_signature" }]);
    const { client } = await import("@latchkey/test-support");
    const anonymous = await client(t.auth).post("/oauth2/continue", { selected: true, oauth_query: query });
    expect(anonymous.status).toBe(401);
  });
});
