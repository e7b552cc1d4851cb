import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import {
  createAuth,
  oidcProvider,
  symmetricDecrypt,
  symmetricEncrypt,
  type Auth,
  type LatchkeyOptions,
} from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { Browser, CLIENT_ID, CLIENT_SECRET, startIdP, type TestIdP } from "@latchkey/test-support";
import { oAuthProxy, type OAuthProxyOptions } from "../../src/index.ts";

export const SECRET = "oauth-proxy-test-secret-0123456789-abcdefghij";
export const PROD = "http://prod.test";
export const PREVIEW = "http://preview.test";
export const PROD_AUTH = `${PROD}/api/auth`;
export const PREVIEW_AUTH = `${PREVIEW}/api/auth`;

/** The IdP, with production's callback registered (and the preview's, for unproxied flows). */
export async function startProxyIdP(): Promise<TestIdP> {
  const idp = await startIdP([`${PROD_AUTH}/callback/idp`, `${PREVIEW_AUTH}/callback/idp`]);
  idp.accounts.set("alice-sub", { email: "alice@example.com", email_verified: true, name: "Alice" });
  idp.accounts.set("bob-sub", { email: "bob@example.com", email_verified: true, name: "Bob" });
  idp.accounts.set("carol-sub", { email: "carol@example.com", email_verified: true, name: "Carol" });
  idp.accounts.set("noemail-sub", { name: "No Email" });
  return idp;
}

export interface DeploymentOptions {
  /** Options for both instances. */
  shared?: Partial<LatchkeyOptions>;
  prod?: Partial<LatchkeyOptions>;
  preview?: Partial<LatchkeyOptions>;
  /** Proxy options for both (productionURL defaults to PROD). */
  proxy?: OAuthProxyOptions;
}

/** Production and a preview deployment on one SQLite file, the IdP configured in both, and a browser. */
export interface Deployments {
  prod: Auth;
  preview: Auth;
  db: Database.Database;
  browser: Browser;
  /** A fresh browser (its own cookies) that starts at the preview. */
  newBrowser(): Browser;
  /** Rows of a table, read straight from the file. */
  rows<T = Record<string, unknown>>(table: string): T[];
  close(): void;
}

export async function deployments(idp: TestIdP, options: DeploymentOptions = {}): Promise<Deployments> {
  const dir = mkdtempSync(join(tmpdir(), "lk-oauth-proxy-"));
  const file = join(dir, "auth.sqlite");
  const connections: Database.Database[] = [];
  const open = (): Database.Database => {
    const connection = new Database(file);
    connections.push(connection);
    return connection;
  };
  const make = (baseURL: string, extra: Partial<LatchkeyOptions> = {}): Auth =>
    createAuth({
      database: kyselyAdapter(open()),
      secret: SECRET,
      baseURL,
      emailAndPassword: { enabled: true },
      socialProviders: {
        idp: oidcProvider({
          id: "idp",
          issuer: idp.issuer,
          clientId: CLIENT_ID,
          clientSecret: CLIENT_SECRET,
        }),
      },
      logger: { disabled: true },
      rateLimit: { enabled: false },
      ...options.shared,
      ...extra,
      plugins: [oAuthProxy({ productionURL: PROD, ...options.proxy }), ...(extra.plugins ?? [])],
    });
  const prod = make(PROD, options.prod);
  await prod.createTables();
  const preview = make(PREVIEW, options.preview);
  const db = open();
  const newBrowser = (): Browser => new Browser(PREVIEW, preview.handler, { [PROD]: prod.handler });
  return {
    prod,
    preview,
    db,
    browser: newBrowser(),
    newBrowser,
    rows: <T>(table: string) => db.prepare(`SELECT * FROM "${table}"`).all() as T[],
    close() {
      for (const connection of connections) connection.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a sign-in (or link) at the preview and answers the authorization URL. */
export async function startAtPreview(
  browser: Browser,
  body: Record<string, unknown> = {},
  path = "/sign-in/social",
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await browser.post(
    `${PREVIEW_AUTH}${path}`,
    { provider: "idp", callbackURL: "/dashboard", ...body },
    headers,
  );
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { url: string }).url;
}

const isCompletion = (url: URL): boolean =>
  url.pathname.endsWith("/oauth-proxy") || url.pathname.endsWith("/oauth-proxy-callback");

/**
 * Preview → IdP (as `sub`) → production's callback, stopping at the completion URL production
 * redirects to (not yet requested). Returns it and the hops taken.
 */
export async function runToCompletion(
  idp: TestIdP,
  browser: Browser,
  sub: string,
  body: Record<string, unknown> = {},
  path = "/sign-in/social",
): Promise<{ completion: URL; hops: string[] }> {
  idp.login(sub);
  const url = await startAtPreview(browser, body, path);
  const { location, hops } = await browser.follow(url, { stopAt: isCompletion });
  return { completion: new URL(location), hops };
}

/** The session the browser holds at `origin`, or null. */
export async function sessionAt(
  browser: Browser,
  origin: string,
): Promise<{ user: { id: string; email: string; name: string } } | null> {
  const res = await browser.send(`${origin}/api/auth/get-session`);
  return (await res.json()) as { user: { id: string; email: string; name: string } } | null;
}

/** Decrypts a completion URL's profile, for tests that inspect or alter it. */
export async function readProfile(completion: URL): Promise<Record<string, unknown>> {
  return JSON.parse(
    await symmetricDecrypt({ key: SECRET, data: completion.searchParams.get("profile")! }),
  ) as Record<string, unknown>;
}

/** The completion URL with its profile replaced by `payload`, encrypted under `key`. */
export async function withProfile(completion: URL, payload: unknown, key = SECRET): Promise<URL> {
  const next = new URL(completion);
  const data = typeof payload === "string" ? payload : JSON.stringify(payload);
  next.searchParams.set("profile", await symmetricEncrypt({ key, data }));
  return next;
}

/** The `error` parameter of a redirect, and the URL it points to without its query. */
export function errorRedirect(res: Response): { status: number; target: string; error: string | null } {
  const location = res.headers.get("location") ?? "";
  const url = new URL(location, PREVIEW);
  return { status: res.status, target: `${url.origin}${url.pathname}`, error: url.searchParams.get("error") };
}
