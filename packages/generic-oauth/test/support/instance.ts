import { createAuth, memoryAdapter, type LatchkeyOptions, type Row } from "@latchkey/core";
import { Browser, CLIENT_ID, CLIENT_SECRET, startIdP, type TestIdP } from "@latchkey/test-support";
import { genericOAuth, type GenericOAuthConfig, type GenericOAuthOptions } from "../../src/index.ts";

export const BASE = "http://localhost:3000";
export const AUTH = `${BASE}/api/auth`;
export const SECRET = "a-test-secret-that-is-long-enough-0123456789";

/** Redirect URIs the test IdP accepts: new and 1.0 paths of the providers the tests name. */
export const IDP_REDIRECTS = ["idp", "keycloak", "okta", "microsoft-entra-id"].flatMap((id) => [
  `${AUTH}/callback/${id}`,
  `${AUTH}/oauth2/callback/${id}`,
]);

/** The real IdP with the redirect URIs these tests use and Alice's account. */
export async function startAliceIdP(): Promise<TestIdP> {
  const idp = await startIdP(IDP_REDIRECTS);
  idp.accounts.set("alice-sub", { email: "alice@example.com", email_verified: true, name: "Alice" });
  return idp;
}

/** A discovery config for the test IdP (its client authenticates with HTTP Basic). */
export const idpConfig = (idp: TestIdP, extra: Partial<GenericOAuthConfig> = {}): GenericOAuthConfig => ({
  providerId: "idp",
  discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  authentication: "basic",
  scopes: ["email", "profile"],
  ...extra,
});

/** An auth instance with the plugin on a memory store (or the given database), and a browser. */
export function genericInstance(plugin: GenericOAuthOptions, options: Partial<LatchkeyOptions> = {}) {
  const store: Record<string, Row[]> = {};
  const auth = createAuth({
    database: memoryAdapter(store),
    secret: SECRET,
    baseURL: BASE,
    emailAndPassword: { enabled: true },
    ...options,
    plugins: [genericOAuth(plugin), ...(options.plugins ?? [])],
  });
  const browser = new Browser(BASE, auth.handler);
  return { auth, store, browser };
}

/** Starts a sign-in in `browser` at `path` and answers the authorization URL. */
export async function startFlow(
  browser: Browser,
  body: Record<string, unknown>,
  path = "/sign-in/social",
): Promise<string> {
  const res = await browser.post(`${AUTH}${path}`, { callbackURL: "/dashboard", ...body });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { url: string }).url;
}

/** A whole redirect flow: sign-in → provider → callback → the app page it ends on. */
export async function signIn(
  browser: Browser,
  body: Record<string, unknown>,
  options: Parameters<Browser["follow"]>[1] = {},
  path = "/sign-in/social",
): Promise<URL> {
  const url = await startFlow(browser, body, path);
  const { location } = await browser.follow(url, options);
  return new URL(location);
}

/** The session the browser holds, or null. */
export async function sessionOf(browser: Browser): Promise<{ user: Record<string, unknown> } | null> {
  const res = await browser.send(`${AUTH}/get-session`);
  return (await res.json()) as { user: Record<string, unknown> } | null;
}

/** The account rows of the store. */
export const accounts = (store: Record<string, Row[]>): Row[] => store.account ?? [];
