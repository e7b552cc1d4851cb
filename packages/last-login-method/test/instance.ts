import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAuth, memoryAdapter, type LatchkeyOptions } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import Database from "better-sqlite3";
import { lastLoginMethod, type LastLoginMethodOptions } from "../src/index.ts";
import { emailOtpStandIn } from "./email-otp-stand-in.ts";

export const SECRET = "last-login-test-secret-that-is-long-enough-0123456789";
export const BASE = "http://localhost:3000";
export const AUTH = `${BASE}/api/auth`;
export const COOKIE = "better-auth.last_used_login_method";

export const ada = { email: "ada@example.com", password: "correct horse battery", name: "Ada" };

/** A core instance with `lastLoginMethod()` and the email OTP stand-in, and request helpers. */
export function lastLoginInstance(
  pluginOptions: LastLoginMethodOptions = {},
  options: Partial<LatchkeyOptions> = {},
) {
  const baseURL = typeof options.baseURL === "string" ? options.baseURL : BASE;
  const auth = createAuth({
    database: memoryAdapter(),
    secret: SECRET,
    baseURL,
    emailAndPassword: { enabled: true },
    logger: { disabled: true },
    ...options,
    plugins: [lastLoginMethod(pluginOptions), emailOtpStandIn(), ...(options.plugins ?? [])],
  });
  const request = (path: string, init: RequestInit = {}): Promise<Response> =>
    auth.handler(new Request(`${baseURL}/api/auth${path}`, init));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  return { auth, request, post };
}

/** A fresh SQLite file in its own temp directory, and a function that deletes it. */
export function tempSqliteFile(): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-last-login-"));
  return { file: join(dir, "auth.sqlite"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The same instance on a real SQLite file, tables made by `createTables()`; `db` is a reading connection. */
export async function sqliteInstance(
  pluginOptions: LastLoginMethodOptions,
  file: string,
): Promise<ReturnType<typeof lastLoginInstance> & { db: Database.Database }> {
  const t = lastLoginInstance(pluginOptions, { database: kyselyAdapter(new Database(file)) });
  await t.auth.createTables();
  return { ...t, db: new Database(file, { readonly: true }) };
}

/** The Set-Cookie line for `name`, if the response has one. */
export const findCookie = (response: Response, name: string): string | undefined =>
  response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

/** The attributes of a Set-Cookie line, lower-cased names → values ("" for flags). */
export function cookieAttributes(line: string): Record<string, string> {
  const [, ...parts] = line.split(";");
  return Object.fromEntries(
    parts.map((part) => {
      const [key = "", ...value] = part.trim().split("=");
      return [key.toLowerCase(), value.join("=")];
    }),
  );
}

/** The value the response gives the cookie, or undefined when it sets none. */
export function cookieValue(response: Response, name: string): string | undefined {
  const line = findCookie(response, name);
  return line === undefined ? undefined : decodeURIComponent(line.slice(name.length + 1).split(";")[0]!);
}
