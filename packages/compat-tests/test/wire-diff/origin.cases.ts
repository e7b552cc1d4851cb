import { jsonPost, url } from "../support/instances.ts";
import type { WireCase } from "./case.ts";
import { DONT_REMEMBER_COOKIE, SESSION_COOKIE, SESSION_DATA_COOKIE, type Fixture } from "./fixture.ts";

const EVIL = "http://evil.example";
const credentials = (f: Fixture): { email: string; password: string } => ({
  email: f.email,
  password: f.password,
});
const forbidden = (name: string, request: (f: Fixture) => Request, code: string): WireCase => ({
  name,
  request,
  expected: { status: 403, code },
  noWrites: true,
});

/**
 * Origin and CSRF checks (core.md §11.1), run on instances built with
 * `advanced: { disableOriginCheck: false, disableCSRFCheck: false }`.
 */
export const originCases: WireCase[] = [
  {
    ...forbidden(
      "sign-out with cookie and an evil Origin",
      (f) => jsonPost("/sign-out", {}, { cookie: f.cookie, origin: EVIL }),
      "INVALID_ORIGIN",
    ),
    expected: { status: 403, code: "INVALID_ORIGIN", body: { message: "Invalid origin" } },
  },
  {
    ...forbidden(
      "sign-out with cookie and no Origin",
      (f) => jsonPost("/sign-out", {}, { cookie: f.cookie }),
      "MISSING_OR_NULL_ORIGIN",
    ),
    expected: { status: 403, code: "MISSING_OR_NULL_ORIGIN", body: { message: "Missing or null Origin" } },
  },
  forbidden(
    "sign-out with cookie and Origin: null",
    (f) => jsonPost("/sign-out", {}, { cookie: f.cookie, origin: "null" }),
    "MISSING_OR_NULL_ORIGIN",
  ),
  forbidden(
    "sign-out with cookie and an evil Referer",
    (f) => jsonPost("/sign-out", {}, { cookie: f.cookie, referer: `${EVIL}/page` }),
    "INVALID_ORIGIN",
  ),
  {
    name: "sign-out with cookie and the trusted Origin",
    request: (f) => jsonPost("/sign-out", {}, { cookie: f.cookie, origin: "http://localhost:3000" }),
    expected: { status: 200, cookies: [DONT_REMEMBER_COOKIE, SESSION_DATA_COOKIE, SESSION_COOKIE] },
  },
  {
    name: "sign-out with cookie and a trusted Referer",
    request: (f) => jsonPost("/sign-out", {}, { cookie: f.cookie, referer: "http://localhost:3000/account" }),
    expected: { status: 200, cookies: [DONT_REMEMBER_COOKIE, SESSION_DATA_COOKIE, SESSION_COOKIE] },
  },
  {
    ...forbidden(
      "sign-in with an untrusted absolute callbackURL",
      (f) => jsonPost("/sign-in/email", { ...credentials(f), callbackURL: `${EVIL}/landing` }),
      "INVALID_CALLBACK_URL",
    ),
    expected: { status: 403, code: "INVALID_CALLBACK_URL", body: { message: "Invalid callbackURL" } },
  },
  forbidden(
    "sign-in with a protocol-relative callbackURL",
    (f) => jsonPost("/sign-in/email", { ...credentials(f), callbackURL: "//evil.example/landing" }),
    "INVALID_CALLBACK_URL",
  ),
  forbidden(
    "sign-up with an untrusted callbackURL",
    () =>
      jsonPost("/sign-up/email", {
        name: "X",
        email: "x@example.com",
        password: "password-123",
        callbackURL: `${EVIL}/`,
      }),
    "INVALID_CALLBACK_URL",
  ),
  {
    ...forbidden(
      "sign-in as a cross-site navigation",
      (f) =>
        jsonPost("/sign-in/email", credentials(f), {
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "navigate",
        }),
      "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED",
    ),
    expected: {
      status: 403,
      code: "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED",
      body: { message: "Cross-site navigation login blocked. This request appears to be a CSRF attack." },
    },
  },
  forbidden(
    "form-posted sign-in as a cross-site navigation",
    (f) =>
      new Request(url("/sign-in/email"), {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "navigate",
          "sec-fetch-dest": "document",
        },
        body: new URLSearchParams(credentials(f)).toString(),
      }),
    "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED",
  ),
  forbidden(
    "sign-up as a cross-site navigation",
    () =>
      jsonPost(
        "/sign-up/email",
        { name: "X", email: "x@example.com", password: "password-123" },
        { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
      ),
    "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED",
  ),
  forbidden(
    "sign-in without cookie from an evil Origin",
    (f) => jsonPost("/sign-in/email", credentials(f), { origin: EVIL }),
    "INVALID_ORIGIN",
  ),
  forbidden(
    "sign-in with cross-site fetch metadata and an evil Origin",
    (f) =>
      jsonPost("/sign-in/email", credentials(f), {
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "cors",
        origin: EVIL,
      }),
    "INVALID_ORIGIN",
  ),
  {
    name: "sign-in with same-origin fetch metadata and the trusted Origin",
    request: (f) =>
      jsonPost("/sign-in/email", credentials(f), {
        "sec-fetch-site": "same-origin",
        "sec-fetch-mode": "cors",
        origin: "http://localhost:3000",
      }),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    // No cookie, no Origin, no fetch metadata: a non-browser client, allowed.
    name: "sign-in from a non-browser client",
    request: (f) => jsonPost("/sign-in/email", credentials(f)),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    name: "sign-in with a relative callbackURL",
    request: (f) => jsonPost("/sign-in/email", { ...credentials(f), callbackURL: "/home" }),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
];

/** The same hostile requests on default instances: under NODE_ENV=test both skip the checks. */
export const originOffCases: WireCase[] = [
  {
    name: "checks off: sign-out with cookie and an evil Origin",
    request: (f) => jsonPost("/sign-out", {}, { cookie: f.cookie, origin: EVIL }),
    expected: { status: 200, cookies: [DONT_REMEMBER_COOKIE, SESSION_DATA_COOKIE, SESSION_COOKIE] },
  },
  {
    name: "checks off: sign-in with an untrusted callbackURL",
    request: (f) => jsonPost("/sign-in/email", { ...credentials(f), callbackURL: `${EVIL}/landing` }),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
  {
    name: "checks off: sign-in as a cross-site navigation",
    request: (f) =>
      jsonPost("/sign-in/email", credentials(f), {
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "navigate",
      }),
    expected: { status: 200, cookies: [SESSION_COOKIE] },
  },
];
