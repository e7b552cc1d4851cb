import { jsonPost, url } from "../support/instances.ts";
import type { WireCase } from "./case.ts";
import { SESSION_COOKIE } from "./fixture.ts";

const as = (path: string, body: unknown, cookie: string): Request => jsonPost(path, body, { cookie });
const unauthorized = { status: 401, code: "UNAUTHORIZED", body: { message: "Unauthorized" } };
/** A session created two days ago: older than freshAge (1 day). */
const stale = (db: Parameters<NonNullable<WireCase["prepare"]>>[0]): void => {
  db.prepare('UPDATE "session" SET "createdAt" = ?').run([new Date(Date.now() - 2 * 86_400_000).toISOString()]);
};

/** Account routes of issue 3 owned by core: update-user, update-session, password and session routes. */
export const accountCases: WireCase[] = [
  {
    name: "update-user name and image",
    request: (f) => as("/update-user", { name: "New Name", image: "https://img.example/a.png" }, f.cookie),
    expected: { status: 200, body: { status: true }, cookies: [SESSION_COOKIE] },
  },
  {
    name: "update-user ignores emailVerified",
    request: (f) => as("/update-user", { name: "N", emailVerified: true }, f.cookie),
    expected: { status: 200, body: { status: true }, cookies: [SESSION_COOKIE] },
  },
  {
    name: "update-user with email",
    request: (f) => as("/update-user", { email: "new@example.com" }, f.cookie),
    expected: { status: 400, code: "EMAIL_CAN_NOT_BE_UPDATED" },
    noWrites: true,
  },
  {
    name: "update-user with no known field",
    request: (f) => as("/update-user", { nothing: 1 }, f.cookie),
    expected: { status: 400, body: { message: "No fields to update" } },
    noWrites: true,
  },
  {
    name: "update-user with an array body",
    request: (f) => as("/update-user", [1], f.cookie),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  { name: "update-user without a session", request: () => jsonPost("/update-user", { name: "x" }), expected: unauthorized, noWrites: true },
  {
    name: "update-session with no additional field",
    request: (f) => as("/update-session", { theme: "dark" }, f.cookie),
    expected: { status: 400, body: { message: "No fields to update" } },
    noWrites: true,
  },
  {
    name: "change-password",
    request: (f) => as("/change-password", { currentPassword: f.password, newPassword: "brand-new-password" }, f.cookie),
    expected: { status: 200, body: { token: null, user: { email: "seed@example.com" } } },
  },
  {
    name: "change-password revoking other sessions",
    request: (f) =>
      as("/change-password", { currentPassword: f.password, newPassword: "brand-new-password", revokeOtherSessions: true }, f.cookie),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    name: "change-password with a wrong current password",
    request: (f) => as("/change-password", { currentPassword: "wrong-password", newPassword: "brand-new-password" }, f.cookie),
    expected: { status: 400, code: "INVALID_PASSWORD" },
    noWrites: true,
  },
  {
    name: "change-password with a short new password",
    request: (f) => as("/change-password", { currentPassword: f.password, newPassword: "short" }, f.cookie),
    expected: { status: 400, code: "PASSWORD_TOO_SHORT" },
    noWrites: true,
  },
  {
    name: "change-password with a missing field",
    request: (f) => as("/change-password", { newPassword: "brand-new-password" }, f.cookie),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "change-password without a session",
    request: (f) => jsonPost("/change-password", { currentPassword: f.password, newPassword: "brand-new-password" }),
    expected: unauthorized,
    noWrites: true,
  },
  {
    name: "verify-password",
    request: (f) => as("/verify-password", { password: f.password }, f.cookie),
    expected: { status: 200, body: { status: true } },
    noWrites: true,
  },
  {
    name: "verify-password with a wrong password",
    request: (f) => as("/verify-password", { password: "wrong-password" }, f.cookie),
    expected: { status: 400, code: "INVALID_PASSWORD" },
    noWrites: true,
  },
  {
    name: "list-sessions",
    request: (f) => new Request(url("/list-sessions"), { headers: { cookie: f.cookie } }),
    expected: { status: 200 },
    noWrites: true,
  },
  {
    name: "list-sessions with a stale session",
    request: (f) => new Request(url("/list-sessions"), { headers: { cookie: f.cookie } }),
    prepare: stale,
    expected: { status: 403, code: "SESSION_NOT_FRESH" },
    noWrites: true,
  },
  {
    name: "list-sessions without a session",
    request: () => new Request(url("/list-sessions")),
    expected: unauthorized,
    noWrites: true,
  },
  {
    name: "revoke-session of an unknown token",
    request: (f) => as("/revoke-session", { token: "NoSuchSessionToken0123456789abcd" }, f.cookie),
    expected: { status: 200, body: { status: true } },
    noWrites: true,
  },
  {
    name: "revoke-session of the current session",
    request: (f) => as("/revoke-session", { token: f.token }, f.cookie),
    expected: { status: 200, body: { status: true } },
  },
  {
    name: "revoke-session with a missing token",
    request: (f) => as("/revoke-session", {}, f.cookie),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "revoke-sessions",
    request: (f) => as("/revoke-sessions", {}, f.cookie),
    expected: { status: 200, body: { status: true } },
  },
  {
    name: "revoke-other-sessions",
    request: (f) => as("/revoke-other-sessions", {}, f.cookie),
    expected: { status: 200, body: { status: true } },
  },
];
