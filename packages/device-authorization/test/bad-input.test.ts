import { badInputBattery, type ClientAnswer } from "@latchkey/test-support";
import { expect } from "vitest";
import { deviceInstance, GRANT_TYPE, signedIn } from "./instance.ts";

/**
 * Every 4xx carries either core's `{ code, message }` (body parsing, `/device/token`
 * validation) or the OAuth-style `{ error, error_description }` the device routes answer
 * with; the routes are marked `nonJSON` only so the battery does not insist on `code`.
 */
const oauthOrCoreError = (answer: ClientAnswer): void => {
  if (answer.status < 400) return;
  const body = answer.json as { code?: unknown; error?: unknown; error_description?: unknown } | undefined;
  const oauth = typeof body?.error === "string" && typeof body.error_description === "string";
  const core = typeof body?.code === "string";
  expect(oauth || core, `an error body: ${answer.text.slice(0, 200)}`).toBe(true);
};

const INVALID_REQUEST = { status: 400 };

badInputBattery({
  name: "device routes refuse bad input and write nothing (SQLite)",
  instance: async () => {
    const t = await deviceInstance("sqlite", { validateClient: (id) => id === "known-client" });
    const { browser } = await signedIn(t, "battery");
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes: [
    // A client `validateClient` refuses: well-formed bodies end in invalid_client, no row.
    { method: "POST", path: "/device/code", validBody: { client_id: "rogue", scope: "a" }, nonJSON: true, expect: { "extra fields": INVALID_REQUEST } },
    {
      method: "POST",
      path: "/device/token",
      validBody: { grant_type: GRANT_TYPE, device_code: "never-issued", client_id: "known-client" },
      nonJSON: true,
    },
    { method: "GET", path: "/device", validQuery: { user_code: "NEVERISSUED" }, nonJSON: true },
    { method: "POST", path: "/device/approve", validBody: { userCode: "NEVERISSUED" }, nonJSON: true },
    { method: "POST", path: "/device/deny", validBody: { userCode: "NEVERISSUED" }, nonJSON: true },
  ],
  check: oauthOrCoreError,
});
