import { badInputBattery } from "@latchkey/test-support";
import { expect } from "vitest";
import { jwtInstance, signedIn } from "./instance.ts";

/** A signed-in instance whose key already exists, so no case of the battery may write a row. */
async function ready(pluginOptions: Parameters<typeof jwtInstance>[0] = {}) {
  const t = await jwtInstance(pluginOptions);
  const c = await signedIn(t);
  expect((await c.get("/token")).status).toBe(200);
  return { auth: t.auth, headers: { cookie: c.jar.header() ?? "" }, close: () => t.close() };
}

badInputBattery({
  name: "jwt routes with a session: the battery (SQLite)",
  instance: () => ready({ jwks: { jwksPath: "/.well-known/jwks.json" } }),
  routes: [
    { method: "GET", path: "/.well-known/jwks.json", validQuery: { x: "1" } },
    { method: "GET", path: "/token", validQuery: { disableCookieCache: "true" } },
    { method: "GET", path: "/get-session", validQuery: { disableRefresh: "true" } },
  ],
  // The key material served is public only; no private member (`d`, `p`, `q`…) ever appears.
  check: (answer) => {
    for (const member of ['"d":', '"p":', '"q":', '"dp":', '"dq":', '"qi":']) expect(answer.text).not.toContain(member);
  },
});

badInputBattery({
  name: "jwt routes without a session: the battery (SQLite)",
  instance: async () => {
    const { auth, close } = await ready();
    return { auth, close };
  },
  routes: [{ method: "GET", path: "/token", validQuery: { x: "1" } }],
  // Every case: the route's 401, never a token.
  check: (answer) => {
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ code: "UNAUTHORIZED" });
    expect(answer.headers.get("set-auth-jwt")).toBeNull();
  },
});
