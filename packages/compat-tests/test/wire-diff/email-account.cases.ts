import { jsonPost, url } from "../support/instances.ts";
import type { WireCase } from "./case.ts";
import {
  ageSeedSession,
  DELETE_TOKEN,
  insertOtherUser,
  insertVerification,
  NEW_EMAIL,
  OTHER_COOKIE,
  seedUserId,
  setSeedVerified,
} from "./email-fixture.ts";
import { DONT_REMEMBER_COOKIE, EXPIRED_COOKIES, SESSION_COOKIE, SESSION_DATA_COOKIE } from "./fixture.ts";

const ALL_THREE = [DONT_REMEMBER_COOKIE, SESSION_DATA_COOKIE, SESSION_COOKIE];
const get = (path: string, headers: Record<string, string> = {}): Request =>
  new Request(url(path), { headers });
const changeEmail = (cookie: string | undefined, body: Record<string, unknown>): Request =>
  jsonPost("/change-email", body, cookie ? { cookie } : {});
const deleteUser = (cookie: string | undefined, body: Record<string, unknown> = {}): Request =>
  jsonPost("/delete-user", body, cookie ? { cookie } : {});

/** POST /change-email (main table: a verification sender, no confirmation sender). */
export const changeEmailCases: WireCase[] = [
  {
    name: "change-email without a session",
    request: () => changeEmail(undefined, { newEmail: NEW_EMAIL }),
    expected: { status: 401, code: "UNAUTHORIZED" },
    noWrites: true,
  },
  {
    name: "change-email to the same address in capitals",
    request: (f) => changeEmail(f.cookie, { newEmail: "SEED@example.com" }),
    expected: { status: 400, body: { message: "Email is the same" } },
    noWrites: true,
  },
  {
    name: "change-email with a malformed address",
    request: (f) => changeEmail(f.cookie, { newEmail: "nope" }),
    expected: {
      status: 400,
      code: "VALIDATION_ERROR",
      body: { message: "[body.newEmail] Invalid email address" },
    },
    noWrites: true,
  },
  {
    // Both validate the body before the session middleware runs.
    name: "change-email with a malformed address and no session",
    request: () => changeEmail(undefined, { newEmail: "nope" }),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "change-email to a free address (the new address is mailed a link)",
    request: (f) => changeEmail(f.cookie, { newEmail: NEW_EMAIL, callbackURL: "/settings" }),
    expected: { status: 200, body: { status: true } },
    noWrites: true,
  },
  {
    name: "change-email for a verified user without a confirmation sender",
    prepare: setSeedVerified,
    request: (f) => changeEmail(f.cookie, { newEmail: NEW_EMAIL }),
    expected: { status: 200, body: { status: true } },
  },
  {
    name: "change-email to a taken address (same answer, nothing mailed)",
    prepare: (db) => insertOtherUser(db, NEW_EMAIL),
    request: (f) => changeEmail(f.cookie, { newEmail: NEW_EMAIL }),
    expected: { status: 200, body: { status: true } },
    noWrites: true,
  },
];

/** POST /delete-user and GET /delete-user/callback (main table: no confirmation mail). */
export const deleteUserCases: WireCase[] = [
  {
    name: "delete-user without a session",
    request: () => deleteUser(undefined),
    expected: { status: 401, code: "UNAUTHORIZED" },
    noWrites: true,
  },
  {
    name: "delete-user on a fresh session",
    request: (f) => deleteUser(f.cookie),
    expected: {
      status: 200,
      cookies: ALL_THREE,
      cookieAttributes: EXPIRED_COOKIES,
      body: { success: true, message: "User deleted" },
    },
  },
  {
    name: "delete-user on a stale session without a password",
    prepare: ageSeedSession,
    request: (f) => deleteUser(f.cookie),
    expected: { status: 400, code: "SESSION_EXPIRED" },
    noWrites: true,
  },
  {
    name: "delete-user on a stale session with the password",
    prepare: ageSeedSession,
    request: (f) => deleteUser(f.cookie, { password: f.password }),
    expected: { status: 200, cookies: ALL_THREE, body: { success: true, message: "User deleted" } },
  },
  {
    name: "delete-user with a wrong password",
    request: (f) => deleteUser(f.cookie, { password: "not the password" }),
    expected: { status: 400, code: "INVALID_PASSWORD" },
    noWrites: true,
  },
  {
    name: "delete-user with a non-string password",
    request: (f) => deleteUser(f.cookie, { password: 5 }),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "delete-user with an unknown token in the body",
    request: (f) => deleteUser(f.cookie, { token: "unknown" }),
    expected: { status: 404, code: "INVALID_TOKEN" },
    noWrites: true,
  },
  {
    name: "delete-user callback without a session",
    prepare: (db, f) => insertVerification(db, `delete-account-${DELETE_TOKEN}`, seedUserId(db, f)),
    request: () => get(`/delete-user/callback?token=${DELETE_TOKEN}`),
    expected: { status: 404, code: "FAILED_TO_GET_USER_INFO" },
    noWrites: true,
  },
  {
    name: "delete-user callback with an unknown token",
    request: (f) => get("/delete-user/callback?token=unknown", { cookie: f.cookie }),
    expected: { status: 404, code: "INVALID_TOKEN" },
    noWrites: true,
  },
  {
    name: "delete-user callback with another user's session (the token is spent)",
    prepare: (db, f) => {
      insertVerification(db, `delete-account-${DELETE_TOKEN}`, seedUserId(db, f));
      insertOtherUser(db);
    },
    request: () => get(`/delete-user/callback?token=${DELETE_TOKEN}`, { cookie: OTHER_COOKIE }),
    expected: { status: 404, code: "INVALID_TOKEN" },
  },
  {
    name: "delete-user callback with the owner's session",
    prepare: (db, f) => insertVerification(db, `delete-account-${DELETE_TOKEN}`, seedUserId(db, f)),
    request: (f) => get(`/delete-user/callback?token=${DELETE_TOKEN}`, { cookie: f.cookie }),
    expected: { status: 200, cookies: ALL_THREE, body: { success: true, message: "User deleted" } },
  },
  {
    name: "delete-user callback with a callbackURL",
    prepare: (db, f) => insertVerification(db, `delete-account-${DELETE_TOKEN}`, seedUserId(db, f)),
    request: (f) => get(`/delete-user/callback?token=${DELETE_TOKEN}&callbackURL=/bye`, { cookie: f.cookie }),
    expected: { status: 302, cookies: ALL_THREE, headers: { location: "/bye" } },
  },
  {
    name: "delete-user callback with an expired token",
    prepare: (db, f) => insertVerification(db, `delete-account-${DELETE_TOKEN}`, seedUserId(db, f), -60_000),
    request: (f) => get(`/delete-user/callback?token=${DELETE_TOKEN}`, { cookie: f.cookie }),
    expected: { status: 404, code: "INVALID_TOKEN" },
  },
  {
    name: "delete-user callback without a token",
    request: (f) => get("/delete-user/callback", { cookie: f.cookie }),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
];

/** The default options: no mail senders, change-email and delete-user off. */
export const emailFeaturesOffCases: WireCase[] = [
  {
    name: "send-verification-email without a sender",
    request: () => jsonPost("/send-verification-email", { email: "seed@example.com" }),
    expected: { status: 400, code: "VERIFICATION_EMAIL_NOT_ENABLED" },
    noWrites: true,
  },
  {
    name: "request-password-reset without sendResetPassword",
    request: () => jsonPost("/request-password-reset", { email: "seed@example.com" }),
    expected: {
      status: 400,
      code: "RESET_PASSWORD_DISABLED",
      body: { message: "Reset password isn't enabled" },
    },
    noWrites: true,
  },
  {
    name: "change-email when disabled",
    request: (f) => changeEmail(f.cookie, { newEmail: NEW_EMAIL }),
    expected: { status: 400, code: "CHANGE_EMAIL_DISABLED" },
    noWrites: true,
  },
  {
    name: "delete-user when disabled (404, no body)",
    request: (f) => deleteUser(f.cookie),
    expected: { status: 404 },
    noWrites: true,
  },
  {
    name: "delete-user callback when disabled",
    request: (f) => get("/delete-user/callback?token=x", { cookie: f.cookie }),
    expected: { status: 404, code: "NOT_FOUND", body: { message: "Not found" } },
    noWrites: true,
  },
  {
    name: "verify-email works without a sender",
    request: () => get(`/verify-email?token=not-a-jwt&callbackURL=/cb`),
    expected: { status: 302, headers: { location: "/cb?error=INVALID_TOKEN" } },
    noWrites: true,
  },
];

/** change-email enabled but no flow usable (no sender, no updateEmailWithoutVerification). */
export const changeEmailNoFlowCases: WireCase[] = [
  {
    name: "change-email with no usable flow",
    request: (f) => changeEmail(f.cookie, { newEmail: NEW_EMAIL }),
    expected: { status: 400, body: { message: "Verification email isn't enabled" } },
    noWrites: true,
  },
  {
    // Checked before the lookup: a taken address must not answer differently (200).
    name: "change-email to a taken address with no usable flow",
    prepare: (db) => insertOtherUser(db, NEW_EMAIL),
    request: (f) => changeEmail(f.cookie, { newEmail: NEW_EMAIL }),
    expected: { status: 400, body: { message: "Verification email isn't enabled" } },
    noWrites: true,
  },
];
