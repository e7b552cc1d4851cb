import { BASE_URL, jsonPost, url } from "../support/instances.ts";
import type { WireCase } from "./case.ts";
import type { Fixture } from "./fixture.ts";

/** What the HTML error page tells the user; its markup is free (core.md §9: `/error`). */
const errorPageView = (body: unknown): Record<string, boolean> => {
  const html = String(body);
  return {
    isHtmlDocument: /^<!doctype html>/i.test(html.trim()),
    saysSomethingWentWrong: html.includes("Something went wrong"),
    showsCode: html.includes("state_mismatch"),
    showsDescription: html.includes("expired_state"),
    // Codes outside ^['A-Za-z0-9_-]+$ are shown as UNKNOWN, never reflected.
    showsUnknown: html.includes("UNKNOWN"),
    reflectsScript: html.includes("<script>alert"),
  };
};

const notFound = (name: string, request: (f: Fixture) => Request): WireCase => ({
  name,
  request,
  // 404 with no body and no content type (core.md §9).
  expected: { status: 404, body: null, headers: { "content-type": null } },
  noWrites: true,
});

/** Routing: /ok, unknown paths and methods, trailing slashes (core.md §9: 404, empty body). */
export const routingCases: WireCase[] = [
  { name: "GET /ok", request: () => new Request(url("/ok")), expected: { status: 200, body: { ok: true } } },
  {
    name: "GET /error with an error code",
    request: () => new Request(url("/error?error=state_mismatch&error_description=expired_state")),
    expected: { status: 200 },
    bodyView: errorPageView,
  },
  {
    name: "GET /error with an unsafe error code",
    request: () => new Request(url("/error?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E")),
    expected: { status: 200 },
    bodyView: errorPageView,
  },
  {
    ...notFound("HEAD /ok", () => new Request(url("/ok"), { method: "HEAD" })),
  },
  {
    ...notFound(
      "HEAD /get-session with the session cookie",
      (f) => new Request(url("/get-session"), { method: "HEAD", headers: { cookie: f.cookie } }),
    ),
  },
  notFound("OPTIONS on a POST route", () => new Request(url("/sign-in/email"), { method: "OPTIONS" })),
  notFound("unknown route", () => new Request(url("/no-such-route"))),
  notFound("unknown POST route", () => jsonPost("/sign-in/no-such-method", {})),
  notFound("GET on a POST route", () => new Request(url("/sign-in/email"))),
  notFound("PUT /ok", () => new Request(url("/ok"), { method: "PUT" })),
  notFound("DELETE /get-session", () => new Request(url("/get-session"), { method: "DELETE" })),
  notFound("trailing slash on GET /ok/", () => new Request(url("/ok/"))),
  notFound("trailing slash on a POST route", (f) =>
    jsonPost("/sign-in/email/", { email: f.email, password: f.password }),
  ),
  notFound("double slash inside the path", () => new Request(`${BASE_URL}/api/auth//ok`)),
  notFound("path outside the base path", () => new Request(`${BASE_URL}/ok`)),
  notFound("the base path itself", () => new Request(`${BASE_URL}/api/auth`)),
];
