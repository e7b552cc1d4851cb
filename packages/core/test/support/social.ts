import { oidcProvider, type LatchkeyOptions, type OIDCProviderConfig } from "../../src/index.ts";
import { Browser } from "@latchkey/test-support";
import { BASE, testInstance } from "./instance.ts";
import { CLIENT_ID, CLIENT_SECRET, startIdP, type TestIdP } from "@latchkey/test-support";

export const AUTH = `${BASE}/api/auth`;
export const CALLBACK = `${AUTH}/callback/idp`;

/** Starts the shared IdP with the accounts the social tests use. */
export async function startTestIdP(): Promise<TestIdP> {
  const idp = await startIdP([CALLBACK, `${BASE}/api/auth/callback/other`]);
  idp.accounts.set("alice-sub", {
    email: "alice@example.com",
    email_verified: true,
    name: "Alice",
    picture: "https://img.test/a.png",
  });
  idp.accounts.set("bob-sub", { email: "bob@example.com", email_verified: true, name: "Bob" });
  idp.accounts.set("nameless-sub", { email: "nameless@example.com", email_verified: true });
  idp.accounts.set("unverified-sub", { email: "victim@example.com", email_verified: false, name: "Mallory" });
  idp.accounts.set("noemail-sub", { name: "No Email" });
  return idp;
}

/** The IdP as a provider with id `idp`. */
export const idpProvider = (idp: TestIdP, extra: Partial<OIDCProviderConfig> = {}) =>
  oidcProvider({ id: "idp", issuer: idp.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...extra });

/** A memory-store instance with the IdP configured, and a browser for it. */
export function socialInstance(
  idp: TestIdP,
  options: Partial<LatchkeyOptions> = {},
  provider: Partial<OIDCProviderConfig> = {},
) {
  const t = testInstance({ socialProviders: { idp: idpProvider(idp, provider) }, ...options });
  const browser = new Browser(BASE, t.auth.handler);
  return { ...t, browser };
}

/** Starts a social sign-in in `browser` and answers the authorization URL (not followed). */
export async function startSignIn(
  browser: Browser,
  body: Record<string, unknown> = {},
  path = "/sign-in/social",
): Promise<string> {
  const res = await browser.post(`${AUTH}${path}`, { provider: "idp", callbackURL: "/dashboard", ...body });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { url: string }).url;
}

/**
 * A whole redirect flow: sign-in/social → IdP (logged in as `sub`) → callback → the app page
 * it redirects to. Returns that final URL.
 */
export async function socialSignIn(
  idp: TestIdP,
  browser: Browser,
  sub: string,
  body: Record<string, unknown> = {},
  options: Parameters<Browser["follow"]>[1] = {},
  path = "/sign-in/social",
): Promise<URL> {
  idp.login(sub);
  const url = await startSignIn(browser, body, path);
  const { location } = await browser.follow(url, options);
  return new URL(location);
}

/** The session the browser holds at the app, or null. */
export async function sessionOf(
  browser: Browser,
): Promise<{ user: { id: string; email: string; name: string } } | null> {
  const res = await browser.send(`${AUTH}/get-session`);
  return (await res.json()) as { user: { id: string; email: string; name: string } } | null;
}
