import { jsonPost, url } from "../support/instances.ts";
import type { SqliteConnection } from "../support/sqlite.ts";
import type { WireCase } from "./case.ts";
import {
  DONT_REMEMBER_COOKIE,
  SESSION_COOKIE,
  SESSION_DATA_COOKIE,
  signCookieValue,
  type Fixture,
} from "./fixture.ts";

const DAY = 86_400_000;
const ALL_THREE = [DONT_REMEMBER_COOKIE, SESSION_DATA_COOKIE, SESSION_COOKIE];
const getSession = (cookie: string): Request => new Request(url("/get-session"), { headers: { cookie } });
// Dates are stored as ISO-8601 text on SQLite (core.md §2.4).
const setSessionExpiry = (db: SqliteConnection, f: Fixture, msFromNow: number): void => {
  db.prepare('UPDATE "session" SET "expiresAt" = ? WHERE "token" = ?').run([
    new Date(Date.now() + msFromNow).toISOString(),
    f.token,
  ]);
};
const userId = (db: SqliteConnection, f: Fixture): string =>
  (db.prepare('SELECT "id" FROM "user" WHERE "email" = ?').all([f.email])[0] as { id: string }).id;

/** Requests answered from stored state another process changed: expiry, refresh, odd rows. */
export const storedStateCases: WireCase[] = [
  {
    // The reference deletes the expired row and expires the cookies (core.md §6.4).
    name: "get-session on an expired session",
    prepare: (db, f) => setSessionExpiry(db, f, -60_000),
    request: (f) => getSession(f.cookie),
    expected: { status: 200, cookies: ALL_THREE },
  },
  {
    // Last (re)issue older than updateAge: the expiry moves and the cookie is sent again.
    name: "get-session on a session due for refresh",
    prepare: (db, f) => setSessionExpiry(db, f, 5 * DAY),
    request: (f) => getSession(f.cookie),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    name: "get-session on a session due for refresh with dont_remember",
    prepare: (db, f) => setSessionExpiry(db, f, 5 * DAY),
    request: (f) => getSession(`${f.cookie}; ${DONT_REMEMBER_COOKIE}=${signCookieValue("true")}`),
    expected: { status: 200 },
  },
  {
    name: "get-session on a session due for refresh with disableRefresh",
    prepare: (db, f) => setSessionExpiry(db, f, 5 * DAY),
    request: (f) => new Request(url("/get-session?disableRefresh=true"), { headers: { cookie: f.cookie } }),
    expected: { status: 200 },
  },
  {
    name: "get-session on a verified user with an image and null ip/user agent",
    prepare: (db, f) => {
      db.prepare('UPDATE "user" SET "emailVerified" = 1, "image" = ? WHERE "email" = ?').run([
        "https://example.com/me.png",
        f.email,
      ]);
      db.prepare('UPDATE "session" SET "ipAddress" = NULL, "userAgent" = NULL WHERE "token" = ?').run([
        f.token,
      ]);
    },
    request: (f) => getSession(f.cookie),
    expected: { status: 200 },
  },
  {
    name: "sign-in when the user has no credential account",
    prepare: (db, f) => {
      db.prepare('DELETE FROM "account" WHERE "userId" = ?').run([userId(db, f)]);
    },
    request: (f) => jsonPost("/sign-in/email", { email: f.email, password: f.password }),
    expected: { status: 401, code: "INVALID_EMAIL_OR_PASSWORD" },
    noWrites: true,
  },
  {
    name: "sign-in when the credential account has no password",
    prepare: (db, f) => {
      db.prepare('UPDATE "account" SET "password" = NULL WHERE "userId" = ?').run([userId(db, f)]);
    },
    request: (f) => jsonPost("/sign-in/email", { email: f.email, password: f.password }),
    expected: { status: 401, code: "INVALID_EMAIL_OR_PASSWORD" },
    noWrites: true,
  },
  {
    name: "sign-out of an expired session",
    prepare: (db, f) => setSessionExpiry(db, f, -60_000),
    request: (f) => jsonPost("/sign-out", {}, { cookie: f.cookie }),
    expected: { status: 200, cookies: ALL_THREE },
  },
];
