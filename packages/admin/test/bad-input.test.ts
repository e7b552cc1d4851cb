import { badInputBattery, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { adminInstance, member } from "./instance.ts";

/**
 * Every admin route, called by an administrator with a valid body that then refuses or reads
 * (an unknown user, an email already taken): each malformed variant must be a 4xx with a code,
 * write nothing and never be a 500.
 */
const MISSING = "no-such-user";

/** stop-impersonating reads no body: whatever arrives, the administrator is not impersonating anyone. */
const notImpersonating: CaseExpectations = Object.fromEntries(
  [
    "JSON array",
    "JSON null",
    "JSON string",
    "JSON number",
    "JSON boolean",
    "empty object",
    "missing field",
    "wrong type",
    "extra fields",
    "prototype keys",
    "oversized string",
    "no body",
    "empty JSON body",
    "repeated key",
    "huge value",
    "array key",
    "control characters",
  ].map((family) => [family, { status: 400, code: null, message: "You are not impersonating anyone" }]),
);
// A text/plain body is refused by core before the route runs.
notImpersonating["no content type"] = { status: 415, code: "UNSUPPORTED_MEDIA_TYPE" };


badInputBattery({
  name: "admin routes refuse bad input and write nothing (SQLite)",
  instance: async () => {
    const t = await adminInstance("sqlite");
    const root = await member(t, "battery-root", "admin");
    return { ...t, headers: { cookie: root.browser.jar.header()! } };
  },
  routes: [
    { method: "POST", path: "/admin/set-role", validBody: { userId: MISSING, role: "user" } },
    { method: "GET", path: "/admin/get-user", validQuery: { id: MISSING } },
    {
      method: "POST",
      path: "/admin/create-user",
      validBody: { email: "battery-root@example.com", name: "Taken", password: "long-enough-password", data: { image: "x" } },
    },
    { method: "POST", path: "/admin/update-user", validBody: { userId: MISSING, data: { name: "x" } } },
    { method: "GET", path: "/admin/list-users", validQuery: { searchValue: "battery", limit: "5", sortBy: "email" } },
    { method: "POST", path: "/admin/list-user-sessions", validBody: { userId: MISSING } },
    { method: "POST", path: "/admin/unban-user", validBody: { userId: MISSING } },
    { method: "POST", path: "/admin/ban-user", validBody: { userId: MISSING, banReason: "r", banExpiresIn: 60 } },
    { method: "POST", path: "/admin/impersonate-user", validBody: { userId: MISSING } },
    { method: "POST", path: "/admin/stop-impersonating", expect: notImpersonating },
    { method: "POST", path: "/admin/revoke-user-session", validBody: { sessionToken: "no-such-token" } },
    { method: "POST", path: "/admin/revoke-user-sessions", validBody: { userId: MISSING } },
    { method: "POST", path: "/admin/remove-user", validBody: { userId: MISSING } },
    { method: "POST", path: "/admin/set-user-password", validBody: { userId: MISSING, newPassword: "long-enough-password" } },
    {
      method: "POST",
      path: "/admin/has-permission", validBody: { permissions: { user: ["list"] } },
    },
  ],
  // A refused request never changes the browser's cookies.
  check: (answer) => {
    if (answer.status >= 400) expect(answer.response.headers.getSetCookie()).toEqual([]);
  },
});
