import { jsonPost, url } from "../support/instances.ts";
import type { WireCase } from "./case.ts";
import {
  BROWSER_SESSION,
  DONT_REMEMBER_COOKIE,
  PERSISTENT,
  SESSION_COOKIE,
  type Fixture,
} from "./fixture.ts";

const credentials = (f: Fixture): { email: string; password: string } => ({
  email: f.email,
  password: f.password,
});
const signIn = (body: (f: Fixture) => unknown) => (f: Fixture) => jsonPost("/sign-in/email", body(f));
const refused = (name: string, body: (f: Fixture) => unknown, status: number, code: string): WireCase => ({
  name,
  request: signIn(body),
  expected: { status, code },
  noWrites: true,
});

/** POST /sign-in/email: success variants, bad credentials, malformed input. */
export const signInCases: WireCase[] = [
  {
    name: "sign-in",
    request: signIn(credentials),
    expected: {
      status: 200,
      cookies: [SESSION_COOKIE],
      cookieAttributes: { [SESSION_COOKIE]: PERSISTENT },
      headers: { location: null, "content-type": "application/json" },
      body: { redirect: false, user: { email: "seed@example.com" } },
    },
  },
  {
    name: "sign-in with the email in upper case",
    request: signIn((f) => ({ ...credentials(f), email: f.email.toUpperCase() })),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    // Browser-session cookie (no Max-Age) plus the signed dont_remember flag (core.md §6.2).
    name: "sign-in with rememberMe false",
    request: signIn((f) => ({ ...credentials(f), rememberMe: false })),
    expected: {
      status: 200,
      cookies: [DONT_REMEMBER_COOKIE, SESSION_COOKIE],
      cookieAttributes: { [SESSION_COOKIE]: BROWSER_SESSION, [DONT_REMEMBER_COOKIE]: BROWSER_SESSION },
    },
  },
  {
    // 200 with a Location header, redirect: true and url (core.md §15.10), not a 302.
    name: "sign-in with a relative callbackURL",
    request: signIn((f) => ({ ...credentials(f), callbackURL: "/dashboard" })),
    expected: {
      status: 200,
      cookies: [SESSION_COOKIE],
      headers: { location: "/dashboard" },
      body: { redirect: true, url: "/dashboard" },
    },
  },
  {
    name: "sign-in with an absolute callbackURL on the base origin",
    request: signIn((f) => ({ ...credentials(f), callbackURL: "http://localhost:3000/dashboard?tab=1" })),
    expected: {
      status: 200,
      cookies: [SESSION_COOKIE],
      headers: { location: "http://localhost:3000/dashboard?tab=1" },
      body: { redirect: true, url: "http://localhost:3000/dashboard?tab=1" },
    },
  },
  {
    name: "form-urlencoded sign-in",
    request: (f) =>
      new Request(url("/sign-in/email"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(credentials(f)).toString(),
      }),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    name: "sign-in with extra unknown fields",
    request: signIn((f) => ({ ...credentials(f), remember: "yes", nested: { a: [1] } })),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  refused(
    "wrong password",
    (f) => ({ ...credentials(f), password: "wrong-password-1" }),
    401,
    "INVALID_EMAIL_OR_PASSWORD",
  ),
  refused(
    "unknown email",
    () => ({ email: "nobody@example.com", password: "password-123" }),
    401,
    "INVALID_EMAIL_OR_PASSWORD",
  ),
  refused(
    "malformed email",
    (f) => ({ ...credentials(f), email: "seed-at-example.com" }),
    400,
    "INVALID_EMAIL",
  ),
  refused("missing password", (f) => ({ email: f.email }), 400, "VALIDATION_ERROR"),
  refused("password is a number", (f) => ({ email: f.email, password: 12345678 }), 400, "VALIDATION_ERROR"),
  refused("callbackURL is a number", (f) => ({ ...credentials(f), callbackURL: 7 }), 400, "VALIDATION_ERROR"),
  refused("email is null", (f) => ({ email: null, password: f.password }), 400, "VALIDATION_ERROR"),
  refused("empty email", (f) => ({ email: "", password: f.password }), 400, "INVALID_EMAIL"),
  refused("empty password", (f) => ({ email: f.email, password: "" }), 401, "INVALID_EMAIL_OR_PASSWORD"),
  refused(
    "rememberMe is a string",
    (f) => ({ ...credentials(f), rememberMe: "no" }),
    400,
    "VALIDATION_ERROR",
  ),
  {
    name: "sign-in with a JSON body under text/plain",
    request: (f) =>
      new Request(url("/sign-in/email"), {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify(credentials(f)),
      }),
    expected: { status: 415, code: "UNSUPPORTED_MEDIA_TYPE" },
    noWrites: true,
  },
];
