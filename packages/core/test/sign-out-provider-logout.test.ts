import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestIdP } from "@latchkey/test-support";
import type { Account, OAuthProvider } from "../src/index.ts";
import { BASE, testInstance } from "./support/instance.ts";
import { AUTH, idpProvider, sessionOf, socialSignIn, startTestIdP } from "./support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

type EndSession = NonNullable<OAuthProvider["createEndSessionURL"]>;

/** The IdP provider with an RP-initiated logout builder, signed in as alice. */
async function signedIn(createEndSessionURL?: EndSession, logged: string[] = []) {
  const provider: OAuthProvider = { ...idpProvider(idp), createEndSessionURL };
  const t = testInstance({
    socialProviders: { idp: provider },
    logger: { level: "error", log: (_level, message) => void logged.push(message) },
  });
  const browser = new Browser(BASE, t.auth.handler);
  await socialSignIn(idp, browser, "alice-sub");
  expect(await sessionOf(browser)).not.toBeNull();
  return { ...t, browser };
}

describe("POST /sign-out with RP-initiated logout", () => {
  it("answers the provider's logout URL built from the stored ID token, with Location", async () => {
    const seen: Array<Parameters<EndSession>[0]> = [];
    const { browser, store } = await signedIn((data) => {
      seen.push(data);
      const url = new URL(`${idp.issuer}/session/end`);
      if (data.idToken) url.searchParams.set("id_token_hint", data.idToken);
      return url;
    });
    const res = await browser.post(`${AUTH}/sign-out`, {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; url: string; redirect: boolean };
    expect(body).toMatchObject({ success: true, redirect: true });
    expect(res.headers.get("location")).toBe(body.url);
    const idToken = (store.account as Account[])[0]!.idToken;
    expect(new URL(body.url).searchParams.get("id_token_hint")).toBe(idToken);
    expect(seen).toEqual([{ idToken, postLogoutRedirectURI: undefined, state: undefined }]);
    expect(await sessionOf(browser)).toBeNull();
  });

  it("resolves callbackURL against the base URL, passes state, and omits Location with disableRedirect", async () => {
    const seen: Array<Parameters<EndSession>[0]> = [];
    const { browser } = await signedIn((data) => {
      seen.push(data);
      return new URL("https://idp.example/logout");
    });
    const res = await browser.post(`${AUTH}/sign-out`, {
      callbackURL: "/bye",
      state: "st",
      disableRedirect: true,
    });
    expect(await res.json()).toEqual({ success: true, url: "https://idp.example/logout", redirect: false });
    expect(res.headers.get("location")).toBeNull();
    expect(seen[0]).toMatchObject({ postLogoutRedirectURI: `${BASE}/bye`, state: "st" });
  });

  it("answers { success: true } alone when no provider offers logout, or it returns null", async () => {
    const plain = await signedIn();
    expect(await (await plain.browser.post(`${AUTH}/sign-out`, {})).json()).toEqual({ success: true });
    const declining = await signedIn(() => null);
    expect(await (await declining.browser.post(`${AUTH}/sign-out`, {})).json()).toEqual({ success: true });
  });

  it("still signs out when the provider's builder throws, and logs it", async () => {
    const logged: string[] = [];
    const { browser } = await signedIn(() => {
      throw new Error("boom");
    }, logged);
    const res = await browser.post(`${AUTH}/sign-out`, {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect(await sessionOf(browser)).toBeNull();
    expect(logged.some((m) => m.includes('logout URL for provider "idp"'))).toBe(true);
  });

  it("answers { success: true } without a session", async () => {
    const t = testInstance({
      socialProviders: { idp: { ...idpProvider(idp), createEndSessionURL: () => new URL("https://x.test") } },
    });
    const res = await t.post("/sign-out", {});
    expect(await res.json()).toEqual({ success: true });
  });

  it("refuses a foreign, protocol-relative, backslash or CRLF callbackURL with 403 before signing out (checks on)", async () => {
    const provider: OAuthProvider = {
      ...idpProvider(idp),
      createEndSessionURL: () => new URL("https://idp.example/logout"),
    };
    const t = testInstance({
      socialProviders: { idp: provider },
      advanced: { disableOriginCheck: false },
    });
    const browser = new Browser(BASE, t.auth.handler);
    await socialSignIn(idp, browser, "alice-sub");
    for (const callbackURL of [
      "https://evil.test/bye",
      "//evil.test",
      "/\\evil.test",
      "javascript:alert(1)",
      `${BASE}/bye\r\nSet-Cookie: a=b`,
    ]) {
      const res = await browser.post(`${AUTH}/sign-out`, { callbackURL }, { origin: BASE });
      expect({ callbackURL, status: res.status, body: await res.json() }).toEqual({
        callbackURL,
        status: 403,
        body: { code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" },
      });
      expect(res.headers.get("location")).toBeNull();
    }
    expect(t.count("session")).toBe(1);
    expect(await sessionOf(browser)).not.toBeNull();
  });

  it("keeps a CRLF or 1 MB state encoded in the logout URL", async () => {
    const { browser } = await signedIn((data) => {
      const url = new URL("https://idp.example/logout");
      if (data.state) url.searchParams.set("state", data.state);
      return url;
    });
    const state = `s\r\nSet-Cookie: a=b${"y".repeat(500_000)}`;
    const res = await browser.post(`${AUTH}/sign-out`, { callbackURL: "/bye", state });
    expect(res.status).toBe(200);
    const location = res.headers.get("location")!;
    expect(location).not.toMatch(/[\r\n]/);
    expect(new URL(location).searchParams.get("state")).toBe(state);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("a="))).toBe(false);
    expect(await sessionOf(browser)).toBeNull();
  });
});
