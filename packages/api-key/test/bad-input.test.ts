import { badInputBattery, VALIDATION_ERROR, type CaseExpectations } from "@latchkey/test-support";
import { expect } from "vitest";
import { apiKeyInstance, signedIn } from "./instance.ts";

/** Core's validation answers, as the reference gives them. */
const validation: CaseExpectations = {
  "JSON array": VALIDATION_ERROR,
  "wrong type": VALIDATION_ERROR,
};

/**
 * A signed-in instance, so the cases reach the handlers. `requireName` makes an empty create
 * body a refusal too: no case of the battery may write a row.
 */
async function ready() {
  const t = await apiKeyInstance("sqlite", { enableSessionForAPIKeys: true, requireName: true });
  const { browser } = await signedIn(t, "battery");
  return { ...t, headers: { cookie: browser.jar.header()! } };
}

badInputBattery({
  name: "api-key routes refuse bad input and write nothing (SQLite)",
  instance: ready,
  routes: [
    // Both fields too long, so dropping either one still leaves a body the route refuses.
    { method: "POST", path: "/api-key/create", validBody: { name: "n".repeat(40), prefix: "p".repeat(40) }, expect: validation },
    { method: "POST", path: "/api-key/update", validBody: { keyId: "unknown", name: "x" }, expect: validation },
    { method: "POST", path: "/api-key/delete", validBody: { keyId: "unknown" }, expect: validation },
    { method: "GET", path: "/api-key/get", validQuery: { id: "unknown" } },
    { method: "GET", path: "/api-key/list", validQuery: { limit: "1", sortBy: "name" } },
  ],
  check: (answer) => {
    // Never the key's digest or a plain key in any answer.
    expect(answer.text).not.toMatch(/"key":/);
  },
});

badInputBattery({
  name: "api-key routes authenticated by a malformed x-api-key: refused before the route, nothing written (SQLite)",
  instance: async () => {
    const t = await apiKeyInstance("sqlite", { enableSessionForAPIKeys: true });
    return { ...t, headers: { "x-api-key": `${"k".repeat(64)}\u00e9` } };
  },
  routes: [
    { method: "POST", path: "/api-key/create", validBody: { name: "n" } },
    { method: "GET", path: "/api-key/list", validQuery: { limit: "1" } },
    { method: "GET", path: "/get-session", validQuery: { disableRefresh: "true" } },
  ],
  check: (answer) => {
    expect([400, 401, 403, 404, 405, 413, 415]).toContain(answer.status);
  },
});
