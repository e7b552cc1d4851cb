import { jsonPost, url } from "../support/instances.ts";
import type { WireCase } from "./case.ts";
import { BROWSER_SESSION, DONT_REMEMBER_COOKIE, PERSISTENT, SESSION_COOKIE } from "./fixture.ts";

const valid = { name: "New User", email: "new.user@example.com", password: "password-123" };
const post = (body: string, contentType?: string): Request =>
  new Request(url("/sign-up/email"), {
    method: "POST",
    headers: contentType ? { "content-type": contentType } : {},
    body,
  });
const invalid = (name: string, body: unknown, code = "VALIDATION_ERROR"): WireCase => ({
  name,
  request: () => jsonPost("/sign-up/email", body),
  expected: { status: 400, code },
  noWrites: true,
});

/** POST /sign-up/email: the valid body, every malformed variant, duplicates and transport errors. */
export const signUpCases: WireCase[] = [
  {
    name: "valid sign-up",
    request: () => jsonPost("/sign-up/email", valid),
    expected: {
      status: 200,
      cookies: [SESSION_COOKIE],
      cookieAttributes: { [SESSION_COOKIE]: PERSISTENT },
      body: { user: { name: valid.name, email: valid.email, emailVerified: false, image: null } },
    },
  },
  {
    name: "valid sign-up with image and a relative callbackURL",
    request: () =>
      jsonPost("/sign-up/email", { ...valid, image: "https://example.com/a.png", callbackURL: "/welcome" }),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    // Unknown keys and server-owned fields (emailVerified, id) are dropped, not stored.
    name: "sign-up with extra unknown and server-owned fields",
    request: () =>
      jsonPost("/sign-up/email", { ...valid, role: "admin", emailVerified: true, id: "chosen-by-client" }),
    expected: { status: 200, cookies: [SESSION_COOKIE], body: { user: { emailVerified: false } } },
  },
  {
    name: "sign-up with a 100k-character name",
    request: () => jsonPost("/sign-up/email", { ...valid, name: "n".repeat(100_000) }),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    name: "sign-up with rememberMe false",
    request: () => jsonPost("/sign-up/email", { ...valid, rememberMe: false }),
    expected: {
      status: 200,
      cookies: [DONT_REMEMBER_COOKIE, SESSION_COOKIE],
      cookieAttributes: { [SESSION_COOKIE]: BROWSER_SESSION, [DONT_REMEMBER_COOKIE]: BROWSER_SESSION },
    },
  },
  {
    name: "sign-up with an upper-case email and a charset in the content type",
    request: () =>
      post(JSON.stringify({ ...valid, email: "New.User@Example.COM" }), "application/json; charset=utf-8"),
    expected: { status: 200, cookies: [SESSION_COOKIE], body: { user: { email: valid.email } } },
  },
  {
    name: "sign-up with an empty name",
    request: () => jsonPost("/sign-up/email", { ...valid, name: "" }),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    ...invalid("missing name", { email: valid.email, password: valid.password }),
    expected: {
      status: 400,
      code: "VALIDATION_ERROR",
      body: { message: "[body.name] Invalid input: expected string, received undefined" },
    },
  },
  invalid("missing email", { name: valid.name, password: valid.password }),
  invalid("missing password", { name: valid.name, email: valid.email }),
  invalid("name is a number", { ...valid, name: 42 }),
  invalid("password is a number", { ...valid, password: 12345678 }),
  invalid("email is a boolean", { ...valid, email: true }),
  invalid("name is a nested object", { ...valid, name: { first: "New" } }),
  invalid("password is an array", { ...valid, password: ["password-123"] }),
  invalid("image is a number", { ...valid, image: 7 }),
  invalid("callbackURL is a number", { ...valid, callbackURL: 7 }),
  invalid("email with surrounding spaces", { ...valid, email: " new.user@example.com " }),
  {
    ...invalid("bad email address", { ...valid, email: "not-an-email" }),
    expected: {
      status: 400,
      code: "VALIDATION_ERROR",
      body: { message: "[body.email] Invalid email address" },
    },
  },
  invalid("empty password", { ...valid, password: "" }),
  invalid("password of 7 characters", { ...valid, password: "1234567" }, "PASSWORD_TOO_SHORT"),
  invalid("password of 129 characters", { ...valid, password: "p".repeat(129) }, "PASSWORD_TOO_LONG"),
  invalid("password of 100k characters", { ...valid, password: "p".repeat(100_000) }, "PASSWORD_TOO_LONG"),
  { ...invalid("body is an array", [valid]) },
  { ...invalid("body is JSON null", null) },
  {
    name: "duplicate email",
    request: (f) => jsonPost("/sign-up/email", { ...valid, email: f.email }),
    expected: {
      status: 422,
      code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      body: { message: "User already exists. Use another email." },
    },
    noWrites: true,
  },
  {
    name: "duplicate email in other letter case",
    request: (f) => jsonPost("/sign-up/email", { ...valid, email: f.email.toUpperCase() }),
    expected: { status: 422, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" },
    noWrites: true,
  },
  {
    name: "malformed JSON",
    request: () => post('{"name":', "application/json"),
    expected: { status: 400, code: "BAD_REQUEST", body: { message: "Invalid JSON in request body" } },
    noWrites: true,
  },
  {
    name: "missing body",
    request: () => new Request(url("/sign-up/email"), { method: "POST" }),
    expected: { status: 400, code: "VALIDATION_ERROR" },
    noWrites: true,
  },
  {
    name: "text/plain body",
    request: () => post(JSON.stringify(valid), "text/plain"),
    expected: {
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
      body: {
        message:
          'Content-Type "text/plain" is not allowed. Allowed types: application/x-www-form-urlencoded, application/json',
      },
    },
    noWrites: true,
  },
  {
    name: "form-urlencoded sign-up",
    request: () => post(new URLSearchParams(valid).toString(), "application/x-www-form-urlencoded"),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
];
