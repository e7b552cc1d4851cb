import { CLIENT_ID, CLIENT_SECRET, Browser, startIdP, type TestIdP } from "@latchkey/test-support";
import { oidcProvider } from "@latchkey/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, BASE, COOKIE, lastLoginInstance } from "./instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startIdP([`${AUTH}/callback/idp`]);
  idp.accounts.set("grace-sub", { email: "grace@example.com", email_verified: true, name: "Grace" });
});
afterAll(() => idp.close());

const idpProvider = (): ReturnType<typeof oidcProvider> =>
  oidcProvider({ id: "idp", issuer: idp.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });

/** Runs /sign-in/social → IdP → /callback/idp in a browser; answers the callback's response. */
async function socialSignIn(browser: Browser): Promise<Response> {
  idp.login("grace-sub");
  const start = await browser.post(`${AUTH}/sign-in/social`, { provider: "idp", callbackURL: "/dashboard" });
  const { url } = (await start.json()) as { url: string };
  const { response, location } = await browser.follow(url);
  expect(new URL(location).pathname).toBe("/dashboard");
  return response;
}

describe("last-login-method with a social provider (real OpenID provider)", () => {
  it("the /callback/:id redirect that starts the session writes the provider id", async () => {
    const { auth } = lastLoginInstance({}, { socialProviders: { idp: idpProvider() } });
    const browser = new Browser(BASE, auth.handler);
    const callback = await socialSignIn(browser);
    expect(callback.status).toBe(302);
    expect(browser.appCookies().get(COOKIE)).toBe("idp");
    const line = callback.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`));
    expect(line).toBeDefined();
    expect(line!.toLowerCase()).not.toContain("httponly");
  });

  it("storeInDatabase records the provider id on the new user", async () => {
    const { auth } = lastLoginInstance(
      { storeInDatabase: true },
      { socialProviders: { idp: idpProvider() } },
    );
    const browser = new Browser(BASE, auth.handler);
    await socialSignIn(browser);
    const session = await browser.send(`${AUTH}/get-session`);
    const body = (await session.json()) as { user: { email: string; lastLoginMethod: string } };
    expect(body.user).toMatchObject({ email: "grace@example.com", lastLoginMethod: "idp" });
  });
});
