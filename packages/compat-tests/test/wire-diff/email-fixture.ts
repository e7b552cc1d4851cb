import { createHmac } from "node:crypto";
import { SECRET, type PairOptions } from "../support/instances.ts";
import type { SqliteConnection } from "../support/sqlite.ts";
import { SESSION_COOKIE, signCookieValue, type Fixture } from "./fixture.ts";

/** One mail an application sender was asked to send. */
export interface Mail {
  kind: "verification" | "reset" | "change-email" | "delete";
  to: string;
  url: string;
  token: string;
  newEmail?: string;
}

type Sender = (data: {
  user: { email: string };
  url: string;
  token: string;
  newEmail?: string;
}) => Promise<void>;

/** An injected outbox: senders that record instead of mailing. */
export function createOutbox() {
  const mails: Mail[] = [];
  const sender =
    (kind: Mail["kind"]): Sender =>
    async ({ user, url, token, newEmail }) => {
      mails.push({ kind, to: user.email, url, token, ...(newEmail && { newEmail }) });
    };
  return {
    mails,
    sendVerificationEmail: sender("verification"),
    sendResetPassword: sender("reset"),
    sendChangeEmailConfirmation: sender("change-email"),
    sendDeleteAccountVerification: sender("delete"),
  };
}
/** The senders and recorded mails of one side. */
export type Outbox = ReturnType<typeof createOutbox>;

/** Every mail flow on, with the outbox's senders: the options of the main email table. */
export function emailFlowOptions(outbox: Outbox) {
  return {
    emailAndPassword: { enabled: true, sendResetPassword: outbox.sendResetPassword },
    emailVerification: { sendVerificationEmail: outbox.sendVerificationEmail },
    user: { changeEmail: { enabled: true }, deleteUser: { enabled: true } },
  };
}

/** The same options on both sides, each side with its own outbox (to compare what each mailed). */
export function pairWith(
  options: (outbox: Outbox) => object,
  outboxes = { reference: createOutbox(), latchkey: createOutbox() },
): PairOptions {
  return { reference: options(outboxes.reference), latchkey: options(outboxes.latchkey) };
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * An HS256 JWT made independently of both implementations, with the reference's header
 * (`{"alg":"HS256"}`) and claims order: payload, then `iat`, `exp`.
 */
export function mintJWT(
  payload: Record<string, unknown>,
  { secret = SECRET, expiresIn = 3600 } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64url({ alg: "HS256" })}.${b64url({ ...payload, iat: now, exp: now + expiresIn })}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

/** A second user with a live session, for "someone else" and "address taken" cases. */
export const OTHER = {
  id: "OtherUserId000000000000000000001",
  email: "other@example.com",
  token: "OtherSessionToken000000000000001",
};
/** The signed session cookie of {@link OTHER}. */
export const OTHER_COOKIE = `${SESSION_COOKIE}=${signCookieValue(OTHER.token)}`;
/** The address the seeded user moves to. */
export const NEW_EMAIL = "seed.new@example.com";
/** A reset token (24 alphanumerics) and a delete token (32 of 0-9a-z) the cases store themselves. */
export const RESET_TOKEN = "KnownResetToken000000001";
export const DELETE_TOKEN = "knowndeletetoken0000000000000001";

const iso = (msFromNow = 0): string => new Date(Date.now() + msFromNow).toISOString();

/** The id of the seeded user (the fixture does not carry it). */
export const seedUserId = (db: SqliteConnection, f: Fixture): string =>
  (db.prepare('SELECT "id" FROM "user" WHERE "email" = ?').all([f.email])[0] as { id: string }).id;

let rows = 0;
/** Stores a verification row as the reference writes it (dates as ISO text on SQLite). */
export function insertVerification(
  db: SqliteConnection,
  identifier: string,
  value: string,
  msFromNow = 3_600_000,
): void {
  const id = `Verification${String(++rows).padStart(20, "0")}`;
  db.prepare(
    'INSERT INTO "verification" ("id", "identifier", "value", "expiresAt", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)',
  ).run([id, identifier, value, iso(msFromNow), iso(), iso()]);
}

/** Stores {@link OTHER} with `email` (default OTHER.email) and its session. */
export function insertOtherUser(db: SqliteConnection, email = OTHER.email): void {
  db.prepare(
    'INSERT INTO "user" ("id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt") VALUES (?, ?, ?, 0, NULL, ?, ?)',
  ).run([OTHER.id, "Other User", email, iso(), iso()]);
  db.prepare(
    'INSERT INTO "session" ("id", "expiresAt", "token", "createdAt", "updatedAt", "ipAddress", "userAgent", "userId") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run([
    "OtherSessionId000000000000000001",
    iso(7 * 86_400_000),
    OTHER.token,
    iso(),
    iso(),
    "",
    "",
    OTHER.id,
  ]);
}

/** Marks the seeded user's email verified. */
export const setSeedVerified = (db: SqliteConnection, f: Fixture): void => {
  db.prepare('UPDATE "user" SET "emailVerified" = 1 WHERE "email" = ?').run([f.email]);
};

/** Makes the seeded session older than the default freshAge (one day). */
export const ageSeedSession = (db: SqliteConnection, f: Fixture): void => {
  db.prepare('UPDATE "session" SET "createdAt" = ? WHERE "token" = ?').run([
    iso(-86_400_000 - 60_000),
    f.token,
  ]);
};
