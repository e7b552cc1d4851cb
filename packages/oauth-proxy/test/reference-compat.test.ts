// Wire compatibility with better-auth 1.7.6's own oauth-proxy plugin: a flow started by one
// implementation is finished by the other, both ways, on one database and secret. The
// reference is loaded from the compat-tests package (this package does not depend on it);
// when it is not installed there, the suite is skipped.
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAuth, oidcProvider, type Auth, type OAuthProvider } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { Browser, CLIENT_ID, CLIENT_SECRET, type TestIdP } from "@latchkey/test-support";
import { oAuthProxy } from "../src/index.ts";
import {
  PREVIEW,
  PREVIEW_AUTH,
  PROD,
  PROD_AUTH,
  SECRET,
  sessionAt,
  startProxyIdP,
} from "./support/deployments.ts";

type Handler = (request: Request) => Promise<Response>;
interface ReferenceModules {
  betterAuth(options: Record<string, unknown>): { handler: Handler };
  getMigrations(options: Record<string, unknown>): Promise<{ runMigrations(): Promise<void> }>;
  oAuthProxy(options: Record<string, unknown>): unknown;
}

async function loadReference(): Promise<ReferenceModules | null> {
  try {
    const require = createRequire(new URL("../../compat-tests/package.json", import.meta.url));
    const load = async (name: string): Promise<Record<string, unknown>> =>
      (await import(pathToFileURL(require.resolve(name)).href)) as Record<string, unknown>;
    const [core, migration, proxy] = await Promise.all([
      load("better-auth"),
      load("better-auth/db/migration"),
      load("better-auth/plugins/oauth-proxy"),
    ]);
    return {
      betterAuth: core.betterAuth as ReferenceModules["betterAuth"],
      getMigrations: migration.getMigrations as ReferenceModules["getMigrations"],
      oAuthProxy: proxy.oAuthProxy as ReferenceModules["oAuthProxy"],
    };
  } catch {
    return null;
  }
}

const reference = await loadReference();

let idp: TestIdP;
let dir: string;
let connections: Database.Database[] = [];
beforeAll(async () => {
  if (reference) idp = await startProxyIdP();
});
afterAll(() => idp?.close());
afterEach(() => {
  for (const connection of connections) connection.close();
  connections = [];
  rmSync(dir, { recursive: true, force: true });
});

/** Both implementations at both origins, on one SQLite file the reference migrated. */
async function setup(): Promise<{
  refProd: Handler;
  refPreview: Handler;
  lkProd: Auth;
  lkPreview: Auth;
  db: Database.Database;
}> {
  const ref = reference!;
  dir = mkdtempSync(join(tmpdir(), "lk-oauth-proxy-compat-"));
  const file = join(dir, "auth.sqlite");
  const open = (): Database.Database => {
    const connection = new Database(file);
    connections.push(connection);
    return connection;
  };
  const provider = (): OAuthProvider =>
    oidcProvider({ id: "idp", issuer: idp.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  // The reference has no generic OIDC social provider; a plugin adds this one, as its generic-OAuth plugin does.
  const withProvider = {
    id: "test-idp",
    init: (ctx: { socialProviders: unknown[] }) => ({
      context: { socialProviders: [provider(), ...ctx.socialProviders] },
    }),
  };
  const referenceOptions = (baseURL: string) => ({
    database: open(),
    secret: SECRET,
    baseURL,
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    logger: { disabled: true },
    plugins: [ref.oAuthProxy({ productionURL: PROD }), withProvider],
  });
  const prodOptions = referenceOptions(PROD);
  await (await ref.getMigrations(prodOptions)).runMigrations();
  const refProd = ref.betterAuth(prodOptions);
  const refPreview = ref.betterAuth(referenceOptions(PREVIEW));
  const latchkey = (baseURL: string): Auth =>
    createAuth({
      database: kyselyAdapter(open()),
      secret: SECRET,
      baseURL,
      emailAndPassword: { enabled: true },
      rateLimit: { enabled: false },
      logger: { disabled: true },
      socialProviders: { idp: provider() },
      plugins: [oAuthProxy({ productionURL: PROD })],
    });
  const lkProd = latchkey(PROD);
  await lkProd.createTables();
  return {
    refProd: (r) => refProd.handler(r),
    refPreview: (r) => refPreview.handler(r),
    lkProd,
    lkPreview: latchkey(PREVIEW),
    db: open(),
  };
}

const isCompletion = (url: URL): boolean => url.pathname.endsWith("/oauth-proxy");

/** Sign-in at the preview, through production, up to and including the completion route. */
async function flow(browser: Browser, sub: string): Promise<{ completion: URL; landed: Response }> {
  idp.login(sub);
  const start = await browser.post(`${PREVIEW_AUTH}/sign-in/social`, {
    provider: "idp",
    callbackURL: "/dashboard",
  });
  expect(start.status).toBe(200);
  const { url } = (await start.json()) as { url: string };
  expect(new URL(url).searchParams.get("redirect_uri")).toBe(`${PROD_AUTH}/callback/idp`);
  const { location } = await browser.follow(url, { stopAt: isCompletion });
  const completion = new URL(location);
  expect(completion.origin + completion.pathname).toBe(`${PREVIEW_AUTH}/callback/idp/oauth-proxy`);
  return { completion, landed: await browser.send(completion.href) };
}

describe.skipIf(!reference)("with better-auth 1.7.6's oauth-proxy", () => {
  it("reference preview → Latchkey production → reference preview: Latchkey reads its state package, it reads Latchkey's profile", async () => {
    const { refPreview, lkProd, lkPreview, db } = await setup();
    const browser = new Browser(PREVIEW, refPreview, { [PROD]: lkProd.handler });
    const { landed } = await flow(browser, "alice-sub");
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toBe("/dashboard");
    // The session the reference set is one Latchkey recognises (same database and secret).
    const viaLatchkey = new Browser(PREVIEW, lkPreview.handler);
    const cookie = browser.appCookieHeader();
    const res = await viaLatchkey.send(`${PREVIEW_AUTH}/get-session`, { headers: { cookie } });
    expect(((await res.json()) as { user: { email: string } }).user.email).toBe("alice@example.com");
    expect(db.prepare(`SELECT "accountId" FROM "account" WHERE "providerId" = 'idp'`).all()).toEqual([
      { accountId: "alice-sub" },
    ]);
  });

  it("Latchkey preview → reference production → Latchkey preview: the reference reads Latchkey's package, Latchkey reads its profile", async () => {
    const { refProd, lkPreview, db } = await setup();
    const browser = new Browser(PREVIEW, lkPreview.handler, { [PROD]: refProd });
    const { landed } = await flow(browser, "bob-sub");
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toBe("/dashboard");
    expect((await sessionAt(browser, PREVIEW))?.user.email).toBe("bob@example.com");
    const [account] = db
      .prepare(`SELECT "accountId", "accessTokenExpiresAt" FROM "account" WHERE "providerId" = 'idp'`)
      .all() as Array<{ accountId: string; accessTokenExpiresAt: unknown }>;
    expect(account?.accountId).toBe("bob-sub");
    // The reference sends the expiry as an ISO string; it is stored as a date, not dropped.
    expect(account?.accessTokenExpiresAt).toBeTruthy();
  });
});
