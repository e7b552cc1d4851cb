import { isAbsolute, resolve } from "node:path";

/** Where the demo keeps its data, parsed from `DATABASE_URL`. */
export type DatabaseConfig =
  { kind: "sqlite"; file: string } | { kind: "postgres"; url: string } | { kind: "mysql"; url: string };

/** The captcha providers whose browser widget the demo's pages can show. */
export const CAPTCHA_PROVIDERS = ["cloudflare-turnstile", "google-recaptcha", "hcaptcha"] as const;

/** The routes the captcha guards (the plugin's default `endpoints`): the pages' password forms. */
export const CAPTCHA_GUARDED_PATHS = ["/sign-up/email", "/sign-in/email", "/request-password-reset"];

/** The captcha in front of sign-up, sign-in and password reset, from the `CAPTCHA_*` variables. */
export interface CaptchaConfig {
  provider: (typeof CAPTCHA_PROVIDERS)[number];
  /** The provider's secret, sent to its siteverify endpoint by the server. */
  secretKey: string;
  /** The widget's public site key, put in the pages. */
  siteKey: string;
  /** Another siteverify URL (a test stub, a proxy); unset: the provider's. */
  siteVerifyURL?: string;
}

/** Everything the demo reads from its environment, resolved once at start. */
export interface DemoConfig {
  /** @default 3000 */
  port: number;
  /** @default `http://localhost:${port}` */
  baseURL: string;
  secret: string;
  /** False when `AUTH_SECRET` was unset and the development secret is in use. */
  secretFromEnv: boolean;
  database: DatabaseConfig;
  /** `ADMIN_EMAILS`, lower-cased; empty: the first account created is the administrator. */
  adminEmails: string[];
  /** Unset unless `CAPTCHA_PROVIDER` and `CAPTCHA_SECRET_KEY` are set: no captcha. */
  captcha?: CaptchaConfig;
}

/** The secret used when `AUTH_SECRET` is unset; fine on a laptop, never in production. */
export const DEV_SECRET = "latchkey-demo-insecure-development-secret";

/** The SQLite file used when `DATABASE_URL` is unset, relative to the app folder. */
export const DEFAULT_SQLITE_FILE = ".data/demo.db";

/**
 * Reads `PORT`, `DATABASE_URL`, `AUTH_SECRET`, `BASE_URL`, `ADMIN_EMAILS` and the `CAPTCHA_*`
 * variables; throws a TypeError on bad values.
 */
export function loadConfig(env: NodeJS.ProcessEnv, appDir: string): DemoConfig {
  const port = parsePort(env.PORT);
  const secret = nonEmpty(env.AUTH_SECRET);
  return {
    port,
    baseURL: nonEmpty(env.BASE_URL) ?? `http://localhost:${port}`,
    secret: secret ?? DEV_SECRET,
    secretFromEnv: secret !== undefined,
    database: parseDatabaseUrl(env.DATABASE_URL, appDir),
    adminEmails: parseEmailList(env.ADMIN_EMAILS),
    ...optional("captcha", parseCaptcha(env)),
  };
}

/**
 * The captcha settings: none unless `CAPTCHA_PROVIDER` and `CAPTCHA_SECRET_KEY` are both set;
 * then `CAPTCHA_SITE_KEY` is required too (the pages' widget needs it) and
 * `CAPTCHA_SITEVERIFY_URL` may name another siteverify endpoint. Half a configuration is an
 * error, never a silently disabled captcha.
 */
export function parseCaptcha(env: NodeJS.ProcessEnv): CaptchaConfig | undefined {
  const provider = nonEmpty(env.CAPTCHA_PROVIDER);
  const secretKey = nonEmpty(env.CAPTCHA_SECRET_KEY);
  const siteKey = nonEmpty(env.CAPTCHA_SITE_KEY);
  const siteVerifyURL = nonEmpty(env.CAPTCHA_SITEVERIFY_URL);
  if (provider === undefined && secretKey === undefined) {
    if (siteKey !== undefined || siteVerifyURL !== undefined)
      throw new TypeError("CAPTCHA_SITE_KEY / CAPTCHA_SITEVERIFY_URL need CAPTCHA_PROVIDER and CAPTCHA_SECRET_KEY");
    return undefined;
  }
  if (provider === undefined || secretKey === undefined)
    throw new TypeError("the captcha needs both CAPTCHA_PROVIDER and CAPTCHA_SECRET_KEY");
  if (!(CAPTCHA_PROVIDERS as readonly string[]).includes(provider))
    throw new TypeError(`CAPTCHA_PROVIDER must be one of ${CAPTCHA_PROVIDERS.join(", ")}, got "${provider}"`);
  if (siteKey === undefined) throw new TypeError("the captcha needs CAPTCHA_SITE_KEY for the pages' widget");
  if (siteVerifyURL !== undefined && !/^https?:\/\//.test(siteVerifyURL))
    throw new TypeError("CAPTCHA_SITEVERIFY_URL must be an http(s) URL");
  return {
    provider: provider as CaptchaConfig["provider"],
    secretKey,
    siteKey,
    ...optional("siteVerifyURL", siteVerifyURL),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Parses a comma-separated list of addresses (`ADMIN_EMAILS`), lower-cased, blanks dropped. */
export function parseEmailList(value: string | undefined): string[] {
  const emails = (value ?? "").split(",").map((email) => email.trim().toLowerCase()).filter(Boolean);
  for (const email of emails) {
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new TypeError(`ADMIN_EMAILS holds "${email}", not an email address`);
  }
  return emails;
}

/** Parses `PORT`; 0 asks the OS for a free port. */
export function parsePort(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return 3000;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new TypeError(`PORT must be an integer from 0 to 65535, got "${text}"`);
  return port;
}

/**
 * Turns `DATABASE_URL` into a database choice. Accepted: unset (SQLite at `.data/demo.db`),
 * `postgres://` / `postgresql://`, `mysql://` / `mariadb://`, and SQLite as `file:PATH`,
 * `sqlite:PATH`, `sqlite://PATH`, `:memory:` or a bare path. Relative SQLite paths resolve
 * against `appDir`, so the file lands in the same place whichever folder the command ran from.
 */
export function parseDatabaseUrl(value: string | undefined, appDir: string): DatabaseConfig {
  const url = nonEmpty(value);
  if (url === undefined) return { kind: "sqlite", file: resolve(appDir, DEFAULT_SQLITE_FILE) };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "postgres" || scheme === "postgresql") return { kind: "postgres", url };
  if (scheme === "mysql" || scheme === "mariadb")
    return { kind: "mysql", url: url.replace(/^mariadb:/i, "mysql:") };
  if (scheme === "file" || scheme === "sqlite") return { kind: "sqlite", file: sqlitePath(url, appDir) };
  // A one-letter "scheme" is a Windows drive letter, part of a bare path.
  if (scheme !== undefined && scheme.length > 1) {
    throw new TypeError(
      `DATABASE_URL scheme "${scheme}:" is not supported; use postgres://, mysql:// or a SQLite path`,
    );
  }
  return { kind: "sqlite", file: url === ":memory:" ? url : resolve(appDir, url) };
}

/** A one-line description of the database for logs: never the password or query string. */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.kind === "sqlite") return `sqlite ${database.file}`;
  const url = new URL(database.url);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
  return `${database.kind} ${user}${url.host}${url.pathname}`;
}

function sqlitePath(url: string, appDir: string): string {
  if (/^file:\/\//i.test(url)) return decodeURIComponent(new URL(url).pathname);
  // `sqlite://PATH` and `sqlite:PATH` both name a path: `sqlite:///abs` and `sqlite://./rel`.
  const path = url.replace(/^(sqlite:(\/\/)?|file:)/i, "");
  if (path === "") throw new TypeError("DATABASE_URL names no SQLite file");
  if (path === ":memory:") return path;
  return isAbsolute(path) ? path : resolve(appDir, path);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
