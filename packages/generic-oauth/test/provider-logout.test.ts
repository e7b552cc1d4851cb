import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ID, type TestIdP } from "@latchkey/test-support";
import {
  accounts,
  AUTH,
  genericInstance,
  idpConfig,
  sessionOf,
  signIn,
  startAliceIdP,
} from "./support/instance.ts";
import type { GenericOAuthConfig } from "../src/index.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startAliceIdP();
});
afterAll(() => idp.close());

async function signedIn(
  extra: Partial<GenericOAuthConfig> = {},
  options: Parameters<typeof genericInstance>[1] = {},
) {
  const instance = genericInstance({ config: [idpConfig(idp, extra)] }, options);
  idp.login("alice-sub");
  await signIn(instance.browser, { provider: "idp" });
  expect(await sessionOf(instance.browser)).not.toBeNull();
  return instance;
}

describe("RP-initiated logout on /sign-out", () => {
  it("answers the discovered end-session URL with the ID token as hint, and redirects", async () => {
    const { browser, store } = await signedIn();
    const res = await browser.post(`${AUTH}/sign-out`, {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; url: string; redirect: boolean };
    expect(body.success).toBe(true);
    expect(body.redirect).toBe(true);
    expect(res.headers.get("location")).toBe(body.url);
    const url = new URL(body.url);
    expect(url.origin + url.pathname).toBe(`${idp.issuer}/session/end`);
    expect(url.searchParams.get("id_token_hint")).toBe(accounts(store)[0]!.idToken);
    // With a hint and no post-logout URI the provider knows the client from the token.
    expect(url.searchParams.has("client_id")).toBe(false);
    expect(await sessionOf(browser)).toBeNull();
  });

  it("sends a callbackURL as post_logout_redirect_uri with client_id and state; disableRedirect drops Location", async () => {
    const { browser } = await signedIn();
    const res = await browser.post(`${AUTH}/sign-out`, {
      callbackURL: "/bye",
      state: "s-1",
      disableRedirect: true,
    });
    const body = (await res.json()) as { url: string; redirect: boolean };
    expect(body.redirect).toBe(false);
    expect(res.headers.get("location")).toBeNull();
    const url = new URL(body.url);
    expect(url.searchParams.get("post_logout_redirect_uri")).toBe("http://localhost:3000/bye");
    expect(url.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(url.searchParams.get("state")).toBe("s-1");
  });

  it("uses the configured endpoint and postLogoutRedirectURI over discovery", async () => {
    const { browser } = await signedIn({
      endSessionEndpoint: "https://logout.example/end?tenant=t1",
      postLogoutRedirectURI: "/signed-out",
    });
    const body = (await (await browser.post(`${AUTH}/sign-out`, {})).json()) as { url: string };
    const url = new URL(body.url);
    expect(url.origin + url.pathname).toBe("https://logout.example/end");
    expect(url.searchParams.get("tenant")).toBe("t1");
    expect(url.searchParams.get("post_logout_redirect_uri")).toBe("http://localhost:3000/signed-out");
  });

  it("answers only { success: true } with disableProviderLogout, or without a session", async () => {
    const { browser } = await signedIn({ disableProviderLogout: true });
    const res = await browser.post(`${AUTH}/sign-out`, {});
    expect(await res.json()).toEqual({ success: true });
    expect(res.headers.get("location")).toBeNull();
    const again = await browser.post(`${AUTH}/sign-out`, {});
    expect(await again.json()).toEqual({ success: true });
  });

  it("refuses an untrusted callbackURL like every callback URL", async () => {
    // Origin checks are off under NODE_ENV=test unless asked for, as in the reference.
    const { browser } = await signedIn({}, { advanced: { disableOriginCheck: false } });
    const origin = { origin: "http://localhost:3000" };
    const res = await browser.post(`${AUTH}/sign-out`, { callbackURL: "https://attacker.example/" }, origin);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("INVALID_CALLBACK_URL");
    expect(await sessionOf(browser)).not.toBeNull();
  });
});
