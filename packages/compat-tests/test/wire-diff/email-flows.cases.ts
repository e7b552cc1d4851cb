import { jsonPost, SECRET, url, type PairOptions } from "../support/instances.ts";
import type { SqliteConnection } from "../support/sqlite.ts";
import type { WireCase } from "./case.ts";
import {
  changeEmailCases,
  changeEmailNoFlowCases,
  deleteUserCases,
  emailFeaturesOffCases,
} from "./email-account.cases.ts";
import {
  emailFlowOptions,
  insertOtherUser,
  insertVerification,
  mintJWT,
  NEW_EMAIL,
  OTHER_COOKIE,
  pairWith,
  RESET_TOKEN,
  seedUserId,
  setSeedVerified,
} from "./email-fixture.ts";
import { SESSION_COOKIE, type Fixture } from "./fixture.ts";

const get = (path: string, headers: Record<string, string> = {}): Request =>
  new Request(url(path), { headers });
const verify = (token: string, callbackURL?: string): string =>
  `/verify-email?token=${token}${callbackURL === undefined ? "" : `&callbackURL=${encodeURIComponent(callbackURL)}`}`;
const seedToken = (extra: Record<string, unknown> = {}) => mintJWT({ email: "seed@example.com", ...extra });
const REQUESTED = {
  status: true,
  message: "If this email exists in our system, check your email for the reset link",
};
/** Stores `reset-password:RESET_TOKEN` for the seeded user, live for `msFromNow`. */
const storeResetToken =
  (msFromNow?: number) =>
  (db: SqliteConnection, f: Fixture): void =>
    insertVerification(db, `reset-password:${RESET_TOKEN}`, seedUserId(db, f), msFromNow);

/** POST /send-verification-email and GET /verify-email (stateless HS256 tokens). */
export const verificationCases: WireCase[] = [
  {
    name: "send-verification-email, anonymous, unknown address (500 ms floor on both)",
    request: () => jsonPost("/send-verification-email", { email: "nobody@example.com" }),
    expected: { status: 200, body: { status: true } },
    noWrites: true,
  },
  {
    name: "send-verification-email, anonymous, the seeded (unverified) address",
    request: () => jsonPost("/send-verification-email", { email: "seed@example.com", callbackURL: "/v" }),
    expected: { status: 200, body: { status: true } },
    noWrites: true,
  },
  {
    name: "send-verification-email, signed in, another address",
    request: (f) =>
      jsonPost("/send-verification-email", { email: "other@example.com" }, { cookie: f.cookie }),
    expected: { status: 400, code: "EMAIL_MISMATCH" },
    noWrites: true,
  },
  {
    name: "send-verification-email, signed in, own address in capitals",
    request: (f) => jsonPost("/send-verification-email", { email: "SEED@example.com" }, { cookie: f.cookie }),
    expected: { status: 200, body: { status: true } },
  },
  {
    name: "send-verification-email, signed in, already verified",
    prepare: setSeedVerified,
    request: (f) => jsonPost("/send-verification-email", { email: f.email }, { cookie: f.cookie }),
    expected: { status: 400, code: "EMAIL_ALREADY_VERIFIED" },
  },
  {
    name: "send-verification-email with a malformed address",
    request: () => jsonPost("/send-verification-email", { email: "seed@" }),
    expected: {
      status: 400,
      code: "VALIDATION_ERROR",
      body: { message: "[body.email] Invalid email address" },
    },
    noWrites: true,
  },
  {
    name: "send-verification-email with a non-string callbackURL",
    request: () => jsonPost("/send-verification-email", { email: "seed@example.com", callbackURL: 5 }),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "verify-email with a valid token",
    request: () => get(verify(seedToken())),
    expected: { status: 200, body: { status: true, user: null } },
  },
  {
    name: "verify-email with a valid token and a callbackURL",
    request: () => get(verify(seedToken(), "/welcome?from=mail")),
    expected: { status: 302, headers: { location: "/welcome?from=mail" } },
  },
  {
    name: "verify-email for an already verified user",
    prepare: setSeedVerified,
    request: () => get(verify(seedToken())),
    expected: { status: 200, body: { status: true, user: null } },
  },
  {
    name: "verify-email with garbage",
    request: () => get(verify("not-a-jwt")),
    expected: { status: 401, code: "INVALID_TOKEN" },
    noWrites: true,
  },
  {
    name: "verify-email with garbage and a callbackURL carrying a query",
    request: () => get(verify("not-a-jwt", "/cb?x=1")),
    expected: { status: 302, headers: { location: "/cb?x=1&error=INVALID_TOKEN" } },
    noWrites: true,
  },
  {
    name: "verify-email with garbage and an absolute callbackURL",
    request: () => get(verify("not-a-jwt", "http://localhost:3000")),
    expected: { status: 302, headers: { location: "http://localhost:3000/?error=INVALID_TOKEN" } },
    noWrites: true,
  },
  {
    name: "verify-email with a token of another secret",
    request: () => get(verify(mintJWT({ email: "seed@example.com" }, { secret: `${SECRET}-other` }))),
    expected: { status: 401, code: "INVALID_TOKEN" },
    noWrites: true,
  },
  {
    name: "verify-email with an expired token",
    request: () => get(verify(mintJWT({ email: "seed@example.com" }, { expiresIn: -5 }))),
    expected: { status: 401, code: "TOKEN_EXPIRED" },
    noWrites: true,
  },
  {
    name: "verify-email with an expired token and a callbackURL",
    request: () => get(verify(mintJWT({ email: "seed@example.com" }, { expiresIn: -5 }), "/cb")),
    expected: { status: 302, headers: { location: "/cb?error=TOKEN_EXPIRED" } },
    noWrites: true,
  },
  {
    name: "verify-email for an unknown user",
    request: () => get(verify(mintJWT({ email: "nobody@example.com" }), "/cb")),
    expected: { status: 302, headers: { location: "/cb?error=USER_NOT_FOUND" } },
    noWrites: true,
  },
  {
    name: "verify-email without a token",
    request: () => get("/verify-email"),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "verify-email, change-email confirmation step (mails the new address)",
    request: (f) =>
      get(verify(seedToken({ updateTo: NEW_EMAIL, requestType: "change-email-confirmation" })), {
        cookie: f.cookie,
      }),
    expected: { status: 200, body: { status: true } },
    noWrites: true,
  },
  {
    name: "verify-email, change-email verification step with the owner's session",
    request: (f) =>
      get(verify(seedToken({ updateTo: NEW_EMAIL, requestType: "change-email-verification" })), {
        cookie: f.cookie,
      }),
    expected: {
      status: 200,
      cookies: [SESSION_COOKIE],
      body: { status: true, user: { email: NEW_EMAIL, emailVerified: true } },
    },
  },
  {
    name: "verify-email, change-email verification step without a session (signs in)",
    request: () =>
      get(verify(seedToken({ updateTo: NEW_EMAIL, requestType: "change-email-verification" }), "/done")),
    expected: { status: 302, cookies: [SESSION_COOKIE], headers: { location: "/done" } },
  },
  {
    name: "verify-email, change-email token with another user's session",
    prepare: (db) => insertOtherUser(db),
    request: () =>
      get(verify(seedToken({ updateTo: NEW_EMAIL, requestType: "change-email-verification" })), {
        cookie: OTHER_COOKIE,
      }),
    expected: { status: 401, code: "INVALID_USER" },
    noWrites: true,
  },
  {
    name: "verify-email, legacy change-email token (no request type)",
    request: (f) => get(verify(seedToken({ updateTo: NEW_EMAIL })), { cookie: f.cookie }),
    expected: {
      status: 200,
      cookies: [SESSION_COOKIE],
      body: { status: true, user: { email: NEW_EMAIL, emailVerified: false } },
    },
  },
];

/** POST /request-password-reset, GET /reset-password/:token, POST /reset-password. */
export const passwordResetCases: WireCase[] = [
  {
    name: "request-password-reset for the seeded address",
    request: () => jsonPost("/request-password-reset", { email: "seed@example.com", redirectTo: "/reset" }),
    expected: { status: 200, body: REQUESTED },
  },
  {
    name: "request-password-reset for an unknown address",
    request: () => jsonPost("/request-password-reset", { email: "nobody@example.com" }),
    expected: { status: 200, body: REQUESTED },
    noWrites: true,
  },
  {
    name: "request-password-reset with a malformed address",
    request: () => jsonPost("/request-password-reset", { email: "nope" }),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "reset link with a live token",
    prepare: storeResetToken(),
    request: () => get(`/reset-password/${RESET_TOKEN}?callbackURL=/reset`),
    expected: { status: 302, headers: { location: `http://localhost:3000/reset?token=${RESET_TOKEN}` } },
  },
  {
    name: "reset link with an absolute callbackURL carrying a query",
    prepare: storeResetToken(),
    request: () =>
      get(`/reset-password/${RESET_TOKEN}?callbackURL=${encodeURIComponent("http://localhost:3000/r?a=1")}`),
    expected: { status: 302, headers: { location: `http://localhost:3000/r?a=1&token=${RESET_TOKEN}` } },
  },
  {
    name: "reset link with an unknown token",
    request: () => get("/reset-password/UnknownToken000000000000?callbackURL=/reset"),
    expected: { status: 302, headers: { location: "http://localhost:3000/reset?error=INVALID_TOKEN" } },
    noWrites: true,
  },
  {
    name: "reset link with an expired token (swept)",
    prepare: storeResetToken(-60_000),
    request: () => get(`/reset-password/${RESET_TOKEN}?callbackURL=/reset`),
    expected: { status: 302, headers: { location: "http://localhost:3000/reset?error=INVALID_TOKEN" } },
  },
  {
    name: "reset link with an empty callbackURL",
    prepare: storeResetToken(),
    request: () => get(`/reset-password/${RESET_TOKEN}?callbackURL=`),
    expected: {
      status: 302,
      headers: { location: "http://localhost:3000/api/auth/error?error=INVALID_TOKEN" },
    },
  },
  {
    name: "reset link without a callbackURL",
    request: () => get(`/reset-password/${RESET_TOKEN}`),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "reset-password with a live token in the body",
    prepare: storeResetToken(),
    request: () => jsonPost("/reset-password", { newPassword: "a brand new password", token: RESET_TOKEN }),
    expected: { status: 200, body: { status: true } },
  },
  {
    name: "reset-password with a live token in the query",
    prepare: storeResetToken(),
    request: () => jsonPost(`/reset-password?token=${RESET_TOKEN}`, { newPassword: "a brand new password" }),
    expected: { status: 200, body: { status: true } },
  },
  {
    name: "reset-password without a token",
    request: () => jsonPost("/reset-password", { newPassword: "a brand new password" }),
    expected: { status: 400, code: "INVALID_TOKEN" },
    noWrites: true,
  },
  {
    name: "reset-password with an unknown token",
    request: () => jsonPost("/reset-password", { newPassword: "a brand new password", token: "nope" }),
    expected: { status: 400, code: "INVALID_TOKEN" },
    noWrites: true,
  },
  {
    name: "reset-password with an expired token",
    prepare: storeResetToken(-60_000),
    request: () => jsonPost("/reset-password", { newPassword: "a brand new password", token: RESET_TOKEN }),
    expected: { status: 400, code: "INVALID_TOKEN" },
  },
  {
    name: "reset-password with a too short password (token kept)",
    prepare: storeResetToken(),
    request: () => jsonPost("/reset-password", { newPassword: "short", token: RESET_TOKEN }),
    expected: { status: 400, code: "PASSWORD_TOO_SHORT" },
    noWrites: true,
  },
  {
    name: "reset-password without newPassword",
    request: () => jsonPost("/reset-password", { token: RESET_TOKEN }),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "reset-password for a user that is gone",
    prepare: (db) =>
      insertVerification(db, `reset-password:${RESET_TOKEN}`, "NoSuchUser000000000000000000000a"),
    request: () => jsonPost("/reset-password", { newPassword: "a brand new password", token: RESET_TOKEN }),
    expected: { status: 400, code: "USER_NOT_FOUND" },
  },
  {
    name: "reset-password for a user without a credential account (one is created)",
    prepare: (db, f) => {
      storeResetToken()(db, f);
      db.prepare('DELETE FROM "account"').run([]);
    },
    request: () => jsonPost("/reset-password", { newPassword: "a brand new password", token: RESET_TOKEN }),
    expected: { status: 200, body: { status: true } },
  },
];

/** Each table with the options both sides run it with (every mail sender is an outbox). */
export const emailFlowTables: Array<{ title: string; cases: WireCase[]; options: PairOptions }> = [
  { title: "wire: email verification", cases: verificationCases, options: pairWith(emailFlowOptions) },
  { title: "wire: password reset", cases: passwordResetCases, options: pairWith(emailFlowOptions) },
  { title: "wire: change email", cases: changeEmailCases, options: pairWith(emailFlowOptions) },
  { title: "wire: delete user", cases: deleteUserCases, options: pairWith(emailFlowOptions) },
  {
    title: "wire: email flows off (no senders, features disabled)",
    cases: emailFeaturesOffCases,
    options: {},
  },
  {
    title: "wire: change email without a usable flow",
    cases: changeEmailNoFlowCases,
    options: pairWith(() => ({ user: { changeEmail: { enabled: true } } })),
  },
];
