import { badInputBattery, type ClientAnswer } from "@latchkey/test-support";
import { describe, expect, it } from "vitest";
import { signedIn } from "./instance.ts";
import { DEVICE_GRANT, deviceClient, form, oauthDeviceInstance } from "./oauth-instance.ts";

/** Every 4xx carries an OAuth `error` (or core's `code` for input core refuses first). */
function oauthAnswer(answer: ClientAnswer): void {
  if (answer.status < 400) return;
  const body = answer.json as { error?: unknown; code?: unknown } | undefined;
  expect(typeof body?.error === "string" || typeof body?.code === "string", answer.text.slice(0, 200)).toBe(true);
}

badInputBattery({
  name: "oauthDeviceAuthorization() routes: the battery (SQLite)",
  instance: async () => {
    // The first-party fallback (a client_id no OAuth client has, no credentials) refuses "unknown".
    const t = await oauthDeviceInstance("sqlite", { interval: "1s", validateClient: (id) => id !== "unknown" });
    const { browser } = await signedIn(t, "battery");
    // A client not registered for the device grant: well-formed requests end in a refusal, no row.
    await deviceClient(t, { client_id: undefined, grant_types: ["authorization_code"], redirect_uris: ["https://app.example/cb"] });
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes: [
    // `scope` the provider does not know: refused before any row is written.
    { method: "POST", path: "/device/code", validBody: { client_secret: "nope", client_id: "unknown", scope: "nope:nope" }, nonJSON: true },
    { method: "POST", path: "/device/token", validBody: { grant_type: DEVICE_GRANT, device_code: "never-issued", client_id: "unknown" }, nonJSON: true },
    { method: "POST", path: "/oauth2/token", validBody: { grant_type: DEVICE_GRANT, device_code: "never-issued", client_id: "unknown" }, nonJSON: true, expect: { "malformed JSON": { status: 415 } } },
    { method: "GET", path: "/device", validQuery: { user_code: "NEVERISSUED" }, nonJSON: true },
    { method: "POST", path: "/device/approve", validBody: { userCode: "NEVERISSUED" }, nonJSON: true },
    { method: "POST", path: "/device/deny", validBody: { userCode: "NEVERISSUED" }, nonJSON: true },
  ],
  expect: {
    "extra fields": { status: [400, 401, 415] },
    "missing field": { status: [400, 401, 415] },
  },
  check: oauthAnswer,
});

describe("hostile device_code forms at /oauth2/token and /device/code", () => {
  it("4xx OAuth errors with no-store, nothing written, no poll recorded", async () => {
    const t = await oauthDeviceInstance("sqlite");
    try {
      const made = await deviceClient(t, { token_endpoint_auth_method: "client_secret_post" });
      const issued = (await form(t, "/device/code", { client_id: made.client_id, client_secret: made.client_secret! })).json as { device_code: string };
      const forms: Array<Record<string, string>> = [
        { grant_type: DEVICE_GRANT },
        { grant_type: DEVICE_GRANT, device_code: "" },
        { grant_type: DEVICE_GRANT, device_code: "x".repeat(5000), client_id: made.client_id, client_secret: made.client_secret! },
        { grant_type: DEVICE_GRANT, device_code: issued.device_code },
        { grant_type: DEVICE_GRANT, device_code: issued.device_code, client_id: made.client_id },
        { grant_type: DEVICE_GRANT, device_code: issued.device_code, client_id: made.client_id, client_secret: "wrong" },
        { grant_type: DEVICE_GRANT, device_code: issued.device_code, client_id: made.client_id, client_secret: made.client_secret!, resource: "https://api.example/" },
        { grant_type: DEVICE_GRANT, device_code: "\u0000\u0001", client_id: "\u0000" },
      ];
      for (const fields of forms) {
        const answer = await form(t, "/oauth2/token", fields);
        expect(answer.status, JSON.stringify(fields).slice(0, 100)).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(typeof answer.json!.error).toBe("string");
        expect(answer.headers.get("cache-control")).toBe("no-store");
      }
      const repeated = await client(t, `grant_type=${encodeURIComponent(DEVICE_GRANT)}&device_code=a&device_code=b&client_id=${made.client_id}`);
      expect(repeated.json).toMatchObject({ error: "invalid_request", error_description: "device_code must not be repeated" });
      const repeatedSecret = await client(t, `client_id=${made.client_id}&client_secret=a&client_secret=b`, "/device/code");
      expect(repeatedSecret.json).toMatchObject({ error: "invalid_request", error_description: "client_secret must not be repeated" });
      const adapter = t.auth.$context.adapter;
      expect(await adapter.count({ model: "oauthAccessToken" })).toBe(0);
      expect(await adapter.count({ model: "deviceCode" })).toBe(1);
      const row = await adapter.findOne<{ lastPolledAt: Date | null; status: string }>({ model: "deviceCode", where: [{ field: "deviceCode", value: issued.device_code }] });
      expect(row?.lastPolledAt ?? null).toBeNull();
      expect(row?.status).toBe("pending");
    } finally {
      await t.close();
    }
  });
});

/** A raw url-encoded POST (for repeated members). */
async function client(t: Awaited<ReturnType<typeof oauthDeviceInstance>>, body: string, path = "/oauth2/token") {
  const response = await t.auth.handler(
    new Request(`${t.auth.$context.baseURL}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}
