import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { AUTH, registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

const BASE = "http://localhost:3000";

let idp: TestIdP;
let t: TestAuth;
let strict: TestAuth;
beforeAll(async () => {
  idp = await startSSOIdP(["acme", "acme-2"]);
  idp.accounts.set("alice-sub", { email: "alice@acme.example", email_verified: true, name: "Alice" });
  idp.accounts.set("bob-sub", { email: "bob@sub.acme.example", email_verified: true, name: "Bob" });
  t = await ssoInstance("sqlite", idp);
  strict = await ssoInstance("sqlite", idp, { disableImplicitSignUp: true });
  for (const instance of [t, strict]) {
    const owner = await signedIn(instance, "owner");
    const answer = await owner.post("/sso/register", registration(idp, "acme"));
    if (answer.status !== 200) throw new Error(`register: ${answer.status} ${answer.text}`);
  }
});
afterAll(async () => {
  await t.close();
  await strict.close();
  await idp.close();
});

/** Starts `/sign-in/sso` in a browser and answers the authorization URL. */
async function start(browser: Browser, body: Record<string, unknown>): Promise<URL> {
  const res = await browser.post(`${AUTH}/sign-in/sso`, { callbackURL: "/dashboard", ...body });
  const json = (await res.json()) as { url: string; redirect: boolean };
  if (res.status !== 200) throw new Error(`sign-in/sso: ${res.status} ${JSON.stringify(json)}`);
  expect(json.redirect).toBe(true);
  return new URL(json.url);
}

const sessionOf = async (browser: Browser) =>
  (await (await browser.send(`${AUTH}/get-session`)).json()) as { user: Record<string, unknown> } | null;

describe("SSO sign-in against a real OpenID provider", () => {
  it("signs a new user in by email domain: PKCE, ID token verified, account id = sub, session cookie, redirect", async () => {
    const browser = new Browser(BASE, t.auth.handler);
    idp.login("alice-sub");
    const authorize = await start(browser, { email: "alice@acme.example" });
    expect(authorize.origin + authorize.pathname).toBe(`${idp.issuer}/auth`);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${AUTH}/sso/callback/acme`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("login_hint")).toBe("alice@acme.example");
    expect(authorize.searchParams.get("scope")).toBe("openid email profile offline_access");
    const { location } = await browser.follow(authorize.href);
    expect(location).toBe(`${BASE}/dashboard`);
    const session = await sessionOf(browser);
    // The reference's rule: the IdP's email_verified is not trusted without `trustEmailVerified`.
    expect(session?.user).toMatchObject({ email: "alice@acme.example", name: "Alice", emailVerified: false });
    const account = await t.auth.$context.adapter.findOne<Record<string, unknown>>({
      model: "account",
      where: [{ field: "providerId", value: "acme" }],
    });
    expect(account).toMatchObject({ accountId: "alice-sub", userId: session?.user.id });
    expect(idp.requests.some((r) => r.startsWith("POST /token"))).toBe(true);
  });

  it("finds the provider by providerId and by a subdomain of its domain; a returning user keeps one account", async () => {
    const first = new Browser(BASE, t.auth.handler);
    idp.login("bob-sub");
    await first.follow((await start(first, { domain: "sub.acme.example" })).href);
    const again = new Browser(BASE, t.auth.handler);
    idp.login("bob-sub");
    const { location } = await again.follow((await start(again, { providerId: "acme" })).href);
    expect(location).toBe(`${BASE}/dashboard`);
    expect((await sessionOf(again))?.user.email).toBe("bob@sub.acme.example");
    expect(
      await t.auth.$context.adapter.count({
        model: "account",
        where: [{ field: "accountId", value: "bob-sub" }],
      }),
    ).toBe(1);
  });

  it("answers 404 for an unknown domain, 400 VALIDATION_ERROR for reserved additionalParams", async () => {
    const browser = new Browser(BASE, t.auth.handler);
    const unknown = await browser.post(`${AUTH}/sign-in/sso`, {
      callbackURL: "/dashboard",
      email: "x@nowhere.example",
    });
    expect([unknown.status, ((await unknown.json()) as { message: string }).message]).toEqual([
      404,
      "No provider found for the issuer",
    ]);
    const reserved = await browser.post(`${AUTH}/sign-in/sso`, {
      callbackURL: "/dashboard",
      providerId: "acme",
      additionalParams: { redirect_uri: "https://evil.example" },
    });
    expect([reserved.status, await reserved.json()]).toEqual([
      400,
      {
        code: "VALIDATION_ERROR",
        message:
          "[body.additionalParams] additionalParams cannot include reserved OAuth parameters: state, client_id, redirect_uri, response_type, code_challenge, code_challenge_method, nonce, scope",
      },
    ]);
  });

  it("with disableImplicitSignUp, refuses a new user unless requestSignUp", async () => {
    const refused = new Browser(BASE, strict.auth.handler);
    idp.login("alice-sub");
    const { location } = await refused.follow(
      (await start(refused, { providerId: "acme", errorCallbackURL: "/oops" })).href,
    );
    expect(new URL(location).pathname).toBe("/oops");
    expect(new URL(location).searchParams.get("error")).toBe("signup_disabled");
    expect(await sessionOf(refused)).toBeNull();

    const allowed = new Browser(BASE, strict.auth.handler);
    idp.login("alice-sub");
    const ok = await allowed.follow((await start(allowed, { providerId: "acme", requestSignUp: true })).href);
    expect(ok.location).toBe(`${BASE}/dashboard`);
    expect((await sessionOf(allowed))?.user.email).toBe("alice@acme.example");
  });

  it("a callback whose code exchange fails redirects to the error URL and signs nobody in", async () => {
    // A client id the IdP does not know and a made-up code: the token endpoint refuses them.
    const owner = await signedIn(t, "forger");
    await owner.post("/sso/register", registration(idp, "wrong-client", { clientId: "someone-else" }));
    const browser = new Browser(BASE, t.auth.handler);
    const authorize = await start(browser, { providerId: "wrong-client", errorCallbackURL: "/oops" });
    const callback = new URL(`${AUTH}/sso/callback/wrong-client`);
    callback.searchParams.set("code", "not-a-code");
    callback.searchParams.set("state", authorize.searchParams.get("state")!);
    const res = await browser.send(callback.href, { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!, BASE);
    expect(location.pathname).toBe("/oops");
    expect(location.searchParams.get("error")).toBeTruthy();
    expect(await sessionOf(browser)).toBeNull();
  });
});

describe("spec SSO 2: a provider changed between sign-in and callback", () => {
  it("refuses the callback (error=invalid_state, SSO_PROVIDER_CHANGED) after an update mid-flow", async () => {
    const owner = await signedIn(t, "changer");
    expect(
      (await owner.post("/sso/register", { ...registration(idp, "acme-2"), domain: "two.example" })).status,
    ).toBe(200);
    const browser = new Browser(BASE, t.auth.handler);
    idp.login("alice-sub");
    const authorize = await start(browser, { providerId: "acme-2", errorCallbackURL: "/oops" });
    const update = await owner.post("/sso/update-provider", {
      providerId: "acme-2",
      oidcConfig: { scopes: ["openid", "email"] },
    });
    expect(update.status).toBe(200);
    const { location } = await browser.follow(authorize.href);
    const url = new URL(location, BASE);
    expect(url.pathname).toBe("/oops");
    expect(url.searchParams.get("error")).toBe("invalid_state");
    expect(url.searchParams.get("error_description")).toBe("SSO_PROVIDER_CHANGED");
    expect(await sessionOf(browser)).toBeNull();
  });
});
