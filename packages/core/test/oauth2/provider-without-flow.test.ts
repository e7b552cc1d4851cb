import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestIdP } from "@latchkey/test-support";
import {
  createAuth,
  memoryAdapter,
  type Account,
  type Auth,
  type OAuthProvider,
  type Row,
} from "../../src/index.ts";
import { BASE, SECRET } from "../support/instance.ts";
import { AUTH, idpProvider, sessionOf, socialSignIn, startSignIn, startTestIdP } from "../support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

/**
 * Two instances over one store and secret: `working` has the IdP provider, `bare` the same
 * provider object without its `flow` (a hand-built provider missing it). One browser talks to
 * whichever is current, so a session and an OAuth state begun on one are presented to the other.
 */
function deployments() {
  const store: Record<string, Row[]> = {};
  const logged: string[] = [];
  const instance = (provider: OAuthProvider): Auth =>
    createAuth({
      database: memoryAdapter(store),
      secret: SECRET,
      baseURL: BASE,
      emailAndPassword: { enabled: true },
      socialProviders: { idp: provider },
      logger: { level: "error", log: (_level, message) => void logged.push(message) },
    });
  const working = instance(idpProvider(idp));
  const bare = instance({ ...idpProvider(idp), flow: undefined });
  let current = working;
  const browser = new Browser(BASE, (request) => current.handler(request));
  const useBare = () => {
    current = bare;
  };
  return { store, logged, browser, useBare };
}

describe("a provider without its OAuth flow", () => {
  it("is treated as not configured by every social route (never a 500), and the mistake is logged", async () => {
    const { store, logged, browser, useBare } = deployments();
    await socialSignIn(idp, browser, "alice-sub");
    expect(await sessionOf(browser)).not.toBeNull();
    const accountId = (store.account as Account[]).find((a) => a.providerId === "idp")!.id;
    const state = new URL(await startSignIn(browser)).searchParams.get("state")!;
    useBare();

    const signIn = await browser.post(`${AUTH}/sign-in/social`, { provider: "idp", callbackURL: "/" });
    expect(signIn.status).toBe(404);
    expect(await signIn.json()).toMatchObject({ code: "PROVIDER_NOT_FOUND" });

    const withIdToken = await browser.post(`${AUTH}/sign-in/social`, {
      provider: "idp",
      idToken: { token: "x" },
    });
    expect(withIdToken.status).toBe(404);
    expect(await withIdToken.json()).toMatchObject({ code: "PROVIDER_NOT_FOUND" });

    const link = await browser.post(`${AUTH}/link-social`, { provider: "idp", callbackURL: "/" });
    expect(link.status).toBe(404);
    expect(await link.json()).toMatchObject({ code: "PROVIDER_NOT_FOUND" });

    const callback = await browser.send(`${AUTH}/callback/idp?state=${state}&code=any`);
    expect(callback.status).toBe(302);
    expect(new URL(callback.headers.get("location")!).searchParams.get("error")).toBe(
      "oauth_provider_not_found",
    );

    for (const path of ["/get-access-token", "/refresh-token"]) {
      const res = await browser.post(`${AUTH}${path}`, { accountId });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "PROVIDER_NOT_SUPPORTED" });
    }
    const info = await browser.send(`${AUTH}/account-info?accountId=${accountId}`);
    expect(info.status).toBe(400);
    expect(await info.json()).toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });

    const listed = await browser.send(`${AUTH}/list-accounts`);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toHaveLength(1);

    const signOut = await browser.post(`${AUTH}/sign-out`, {});
    expect(signOut.status).toBe(200);
    expect(await signOut.json()).toEqual({ success: true });

    expect(logged).toContain(
      'Social provider "idp" has no OAuth flow; build it with a provider builder or set `flow: oauthFlow`.',
    );
  });
});
