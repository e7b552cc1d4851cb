import { jsonPost, url } from "../support/instances.ts";
import type { WireCase } from "./case.ts";
import { DONT_REMEMBER_COOKIE, EXPIRED_COOKIES, SESSION_COOKIE, SESSION_DATA_COOKIE } from "./fixture.ts";

const get = (path: string, headers: Record<string, string> = {}): Request =>
  new Request(url(path), { headers });
/** Sign-out and a dead session expire all three. */
const ALL_THREE = [DONT_REMEMBER_COOKIE, SESSION_DATA_COOKIE, SESSION_COOKIE];

/** GET /get-session and POST /sign-out, with and without a session. */
export const sessionCases: WireCase[] = [
  {
    name: "get-session with the session cookie",
    request: (f) => get("/get-session", { cookie: f.cookie }),
    expected: {
      status: 200,
      headers: { "cache-control": "no-store", pragma: "no-cache" },
      body: {
        session: { ipAddress: "127.0.0.1" },
        user: { email: "seed@example.com", emailVerified: false },
      },
    },
  },
  {
    name: "get-session with nothing",
    request: () => get("/get-session"),
    expected: { status: 200, body: null },
    noWrites: true,
  },
  {
    name: "get-session with a tampered cookie signature",
    request: (f) => get("/get-session", { cookie: `${f.cookie.slice(0, -8)}AAAAA%3D` }),
    expected: { status: 200, body: null },
    noWrites: true,
  },
  {
    name: "get-session with an unsigned token as cookie",
    request: (f) => get("/get-session", { cookie: `${SESSION_COOKIE}=${f.token}` }),
    expected: { status: 200 },
    noWrites: true,
  },
  {
    // Signed correctly but no such session row: the reference expires the cookies.
    name: "get-session with a signed cookie for no session",
    request: (f) => get("/get-session", { cookie: f.orphanCookie }),
    expected: { status: 200, cookies: ALL_THREE, cookieAttributes: EXPIRED_COOKIES, body: null },
    noWrites: true,
  },
  {
    name: "get-session with disableRefresh and disableCookieCache",
    request: (f) => get("/get-session?disableRefresh=true&disableCookieCache=true", { cookie: f.cookie }),
    expected: { status: 200 },
  },
  {
    // z.coerce.boolean: any non-empty string, "false" included, is true (core.md §9).
    name: "get-session with disableRefresh=false",
    request: (f) => get("/get-session?disableRefresh=false", { cookie: f.cookie }),
    expected: { status: 200 },
  },
  {
    name: "get-session with the cookie among other cookies",
    request: (f) => get("/get-session", { cookie: `theme=dark; ${f.cookie}; other=1` }),
    expected: { status: 200 },
  },
  {
    name: "get-session with the cookie sent twice, tampered copy first",
    request: (f) => get("/get-session", { cookie: `${SESSION_COOKIE}=forged.value; ${f.cookie}` }),
    expected: { status: 200 },
    noWrites: true,
  },
  {
    // Cookie values are percent-decoded only when they contain "%" (core.md §6.3).
    name: "get-session with the cookie value not percent-encoded",
    request: (f) => get("/get-session", { cookie: decodeURIComponent(f.cookie) }),
    expected: { status: 200, body: { user: { email: "seed@example.com" } } },
  },
  {
    name: "get-session with a __Secure- prefixed cookie over http",
    request: (f) => get("/get-session", { cookie: `__Secure-${f.cookie}` }),
    expected: { status: 200, body: null },
    noWrites: true,
  },
  {
    name: "get-session with the legacy better-auth-session_token name",
    request: (f) => get("/get-session", { cookie: f.cookie.replace("better-auth.", "better-auth-") }),
    expected: { status: 200, body: null },
    noWrites: true,
  },
  {
    name: "sign-out with the session cookie",
    request: (f) => jsonPost("/sign-out", {}, { cookie: f.cookie }),
    expected: { status: 200, cookies: ALL_THREE, cookieAttributes: EXPIRED_COOKIES, body: { success: true } },
  },
  {
    name: "sign-out without a session",
    request: () => jsonPost("/sign-out", {}),
    expected: { status: 200, cookies: ALL_THREE },
    noWrites: true,
  },
  {
    name: "sign-out with no body and no content type",
    request: () => new Request(url("/sign-out"), { method: "POST" }),
    expected: { status: 200, cookies: ALL_THREE },
    noWrites: true,
  },
  {
    name: "sign-out with a signed cookie for no session",
    request: (f) => jsonPost("/sign-out", {}, { cookie: f.orphanCookie }),
    expected: { status: 200, cookies: ALL_THREE },
    noWrites: true,
  },
];
