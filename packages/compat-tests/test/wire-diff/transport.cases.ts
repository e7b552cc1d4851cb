import { url } from "../support/instances.ts";
import type { WireCase } from "./case.ts";
import type { Fixture } from "./fixture.ts";

const raw = (path: string, body: string, contentType?: string): Request =>
  new Request(url(path), {
    method: "POST",
    headers: contentType ? { "content-type": contentType } : {},
    body,
  });
const refused = (name: string, request: (f: Fixture) => Request, status: number, code: string): WireCase => ({
  name,
  request,
  expected: { status, code },
  noWrites: true,
});
const signInJson = (f: Fixture): string => JSON.stringify({ email: f.email, password: f.password });

/** Body parsing and content types (core.md §10.1), beyond the per-route tables. */
export const transportCases: WireCase[] = [
  // An empty JSON body in process is divergence row 58 (bodyless-posts.test.ts).
  {
    ...refused(
      "sign-up with a whitespace-only JSON body",
      () => raw("/sign-up/email", "  \n", "application/json"),
      400,
      "BAD_REQUEST",
    ),
  },
  {
    ...refused(
      "sign-up with a JSON string body",
      () => raw("/sign-up/email", '"x"', "application/json"),
      400,
      "VALIDATION_ERROR",
    ),
  },
  refused(
    "sign-in with a JSON null body",
    () => raw("/sign-in/email", "null", "application/json"),
    400,
    "VALIDATION_ERROR",
  ),
  refused(
    "sign-in with a JSON number body",
    () => raw("/sign-in/email", "42", "application/json"),
    400,
    "VALIDATION_ERROR",
  ),
  refused(
    "sign-in with trailing garbage after the JSON",
    (f) => raw("/sign-in/email", `${signInJson(f)} x`, "application/json"),
    400,
    "BAD_REQUEST",
  ),
  refused(
    "sign-out with a JSON null body",
    () => raw("/sign-out", "null", "application/json"),
    400,
    "VALIDATION_ERROR",
  ),
  refused(
    "sign-out with a text/plain body",
    () => raw("/sign-out", "{}", "text/plain"),
    415,
    "UNSUPPORTED_MEDIA_TYPE",
  ),
  refused(
    "sign-in with a multipart body",
    () => raw("/sign-in/email", "x", "multipart/form-data; boundary=b"),
    415,
    "UNSUPPORTED_MEDIA_TYPE",
  ),
  refused(
    "sign-in with an application/vnd.api+json body",
    (f) => raw("/sign-in/email", signInJson(f), "application/vnd.api+json"),
    415,
    "UNSUPPORTED_MEDIA_TYPE",
  ),
  refused(
    // Form values are strings: "false" is not a boolean to either side.
    "form-urlencoded sign-in with rememberMe=false",
    (f) =>
      raw(
        "/sign-in/email",
        `${new URLSearchParams({ email: f.email, password: f.password })}&rememberMe=false`,
        "application/x-www-form-urlencoded",
      ),
    400,
    "VALIDATION_ERROR",
  ),
  {
    name: "sign-in with a byte-order mark before the JSON",
    request: (f) => raw("/sign-in/email", `\uFEFF${signInJson(f)}`, "application/json"),
    expected: { status: 200, cookies: ["better-auth.session_token"] },
  },
  {
    name: "sign-in with an upper-case JSON content type",
    request: (f) => raw("/sign-in/email", signInJson(f), "APPLICATION/JSON"),
    expected: { status: 200, cookies: ["better-auth.session_token"] },
  },
  {
    name: "sign-in with a __proto__ key in the body",
    request: (f) =>
      raw(
        "/sign-in/email",
        `{"email":"${f.email}","password":"${f.password}","__proto__":{"admin":true}}`,
        "application/json",
      ),
    expected: { status: 200, cookies: ["better-auth.session_token"] },
  },
];
