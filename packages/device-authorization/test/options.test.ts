import type { TestAuth } from "@latchkey/test-support";
import { client } from "@latchkey/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { deviceAuthorization, type DeviceAuthorizationOptions } from "../src/index.ts";
import { parseDuration } from "../src/duration.ts";
import { deviceInstance, issue, poll } from "./instance.ts";

describe("options are checked at start-up", () => {
  it.each<[string, DeviceAuthorizationOptions]>([
    ["expiresIn not a duration", { expiresIn: "soon" }],
    ["expiresIn zero", { expiresIn: "0s" }],
    ["expiresIn negative", { expiresIn: "-5m" }],
    ["interval not a string", { interval: 5 as unknown as string }],
    ["interval in the past", { interval: "5s ago" }],
    ["deviceCodeLength 0", { deviceCodeLength: 0 }],
    ["deviceCodeLength 192", { deviceCodeLength: 192 }],
    ["userCodeLength 2.5", { userCodeLength: 2.5 }],
    ["generateDeviceCode not a function", { generateDeviceCode: "abc" as unknown as () => string }],
    ["generateUserCode not a function", { generateUserCode: 1 as unknown as () => string }],
    ["validateClient not a function", { validateClient: true as unknown as () => boolean }],
    ["onDeviceAuthRequest not a function", { onDeviceAuthRequest: {} as unknown as () => void }],
    ["verificationUri not a string", { verificationUri: 1 as unknown as string }],
  ])("%s is a TypeError", (_, options) => {
    expect(() => deviceAuthorization(options)).toThrow(TypeError);
  });

  it("defaults: 30 min, 5 s, 40 and 8 characters", () => {
    expect(deviceAuthorization().options).toMatchObject({ expiresInMs: 1_800_000, intervalMs: 5000, deviceCodeLength: 40, userCodeLength: 8 });
  });

  it("parses the reference's duration spellings", () => {
    expect(parseDuration("30m")).toBe(1_800_000);
    expect(parseDuration("1 hour")).toBe(3_600_000);
    expect(parseDuration("1.5s")).toBe(1500);
    expect(parseDuration("2 days")).toBe(172_800_000);
    expect(parseDuration("+5s")).toBe(5000);
    expect(parseDuration("5s ago")).toBe(-5000);
    expect(parseDuration("-5s ago")).toBeUndefined();
    expect(parseDuration("5 parsecs")).toBeUndefined();
  });
});

describe("options at work", () => {
  let t: TestAuth | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("custom generators, lengths, lifetime, interval and an absolute verificationUri", async () => {
    let n = 0;
    t = await deviceInstance("sqlite", {
      expiresIn: "10m",
      interval: "1.5s",
      generateDeviceCode: () => `device-${++n}`,
      generateUserCode: () => `custom-${n}`,
      verificationUri: "https://example.com/activate?src=tv",
    });
    const codes = await issue(t);
    expect(codes).toMatchObject({
      device_code: "device-1",
      user_code: "custom-1",
      expires_in: 600,
      // 1.5 s announced as 2: waiting the announced seconds is never too soon.
      interval: 2,
      verification_uri: "https://example.com/activate?src=tv",
      verification_uri_complete: "https://example.com/activate?src=tv&user_code=custom-1",
    });
    // A custom user code is matched exactly: no case folding or separator stripping.
    expect((await client(t.auth).get("/device?user_code=CUSTOM1")).status).toBe(400);
    expect((await client(t.auth).get("/device?user_code=custom-1")).status).toBe(200);
  });

  it("lengths of the default generators", async () => {
    t = await deviceInstance("sqlite", { deviceCodeLength: 191, userCodeLength: 4 });
    const codes = await issue(t);
    expect(codes.device_code).toHaveLength(191);
    expect(codes.user_code).toHaveLength(4);
  });

  it("a colliding generator is retried three times, then server_error", async () => {
    t = await deviceInstance("sqlite", { generateDeviceCode: () => "same", generateUserCode: () => "SAME" });
    expect((await issue(t)).device_code).toBe("same");
    const again = await client(t.auth).post("/device/code", { client_id: "tv-app" });
    expect(again.status).toBe(500);
    expect(again.json).toEqual({ error: "server_error", error_description: "Failed to generate a unique device code" });
  });

  it("a generator returning a non-string or a too-long code is invalid_request", async () => {
    t = await deviceInstance("sqlite", { generateUserCode: () => "U".repeat(192) });
    const answer = await client(t.auth).post("/device/code", { client_id: "tv-app" });
    expect(answer.json).toEqual({ error: "invalid_request", error_description: "Generated user code must be at most 191 characters" });
    expect(await t.auth.$context.adapter.count({ model: "deviceCode" })).toBe(0);
  });

  it("validateClient and onDeviceAuthRequest", async () => {
    const requests: Array<[string, string | undefined]> = [];
    t = await deviceInstance("sqlite", {
      validateClient: (id) => id === "tv-app",
      onDeviceAuthRequest: (id, scope) => {
        requests.push([id, scope]);
      },
    });
    const refused = await client(t.auth).post("/device/code", { client_id: "rogue" });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ error: "invalid_client", error_description: "Invalid client ID" });
    const codes = await issue(t, "tv-app", { scope: "read" });
    expect(requests).toEqual([["tv-app", "read"]]);
    expect((await poll(t, codes.device_code, "rogue")).json).toEqual({ error: "invalid_grant", error_description: "Invalid client ID" });
  });

  it("schema renames the table and columns", async () => {
    t = await deviceInstance("sqlite", { schema: { deviceCode: { modelName: "device_codes", fields: { userCode: "user_code" } } } });
    const codes = await issue(t);
    const sqlite = t.database.driver as { prepare(sql: string): { all(): unknown[] } };
    expect(sqlite.prepare("select user_code from device_codes").all()).toEqual([{ user_code: codes.user_code }]);
    expect((await client(t.auth).get(`/device?user_code=${codes.user_code}`)).status).toBe(200);
  });

  it("rate limit on GET /device: 5 per expiresIn window", async () => {
    t = await deviceInstance("sqlite", {}, { rateLimit: { enabled: true, storage: "memory" } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client(t.auth, { headers: { "x-forwarded-for": "10.0.0.1" } }).get("/device?user_code=AAAA")).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});
