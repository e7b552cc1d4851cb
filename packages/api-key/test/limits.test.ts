import type { TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyInstance, serverCreate, signedIn, verify } from "./instance.ts";

// Every limit at its boundary: the unit each value is in, the last value that passes and the
// first that does not.

let t: TestAuth;
let userId: string;
beforeAll(async () => {
  t = await apiKeyInstance("sqlite", { keyExpiration: { minExpiresIn: 1, maxExpiresIn: 365 } });
  ({ userId } = await signedIn(t, "limits"));
});
afterAll(() => t.close());

const setColumns = (id: string, update: Record<string, unknown>) =>
  t.auth.$context.adapter.update({ model: "apikey", where: [{ field: "id", value: id }], update });
const row = (id: string) =>
  t.auth.$context.adapter.findOne<{ remaining: number | null; requestCount: number; lastRequest: Date | null; lastRefillAt: Date | null }>({
    model: "apikey",
    where: [{ field: "id", value: id }],
  });

describe("expiresIn (seconds) against minExpiresIn / maxExpiresIn (days)", () => {
  it("one day passes, one second less is too small; 365 days pass, one second more is too large", async () => {
    const { browser } = await signedIn(t, "expiry");
    const code = async (expiresIn: number) => {
      const answer = await browser.post<{ code?: string; expiresAt?: string }>("/api-key/create", { expiresIn });
      return answer.status === 200 ? "ok" : answer.json?.code;
    };
    expect(await code(86_400)).toBe("ok");
    expect(await code(86_399)).toBe("EXPIRES_IN_IS_TOO_SMALL");
    expect(await code(365 * 86_400)).toBe("ok");
    expect(await code(365 * 86_400 + 1)).toBe("EXPIRES_IN_IS_TOO_LARGE");
    const made = await browser.post<{ expiresAt: string }>("/api-key/create", { expiresIn: 86_400 });
    const lifetime = new Date(made.json!.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(86_400_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(86_400_000);
  });

  it("disableCustomExpiresTime refuses any expiresIn; defaultExpiresIn is milliseconds (row 100)", async () => {
    const fixed = await apiKeyInstance("sqlite", { keyExpiration: { disableCustomExpiresTime: true, defaultExpiresIn: 2 * 86_400_000 } });
    try {
      const { browser } = await signedIn(fixed, "fixed");
      const refused = await browser.post("/api-key/create", { expiresIn: 2 * 86_400 });
      expect(refused.json).toMatchObject({ code: "KEY_DISABLED_EXPIRATION" });
      const made = await browser.post<{ expiresAt: string }>("/api-key/create", {});
      const lifetime = new Date(made.json!.expiresAt).getTime() - Date.now();
      expect(lifetime).toBeGreaterThan(2 * 86_400_000 - 60_000);
      expect(lifetime).toBeLessThanOrEqual(2 * 86_400_000);
    } finally {
      await fixed.close();
    }
  });
});

describe("name and prefix lengths", () => {
  it("32 characters pass, 33 do not; an empty name on update is too short", async () => {
    const { browser } = await signedIn(t, "lengths");
    expect((await browser.post("/api-key/create", { name: "n".repeat(32), prefix: "p".repeat(32) })).status).toBe(200);
    expect((await browser.post("/api-key/create", { name: "n".repeat(33) })).json).toMatchObject({ code: "INVALID_NAME_LENGTH" });
    const long = await browser.post<{ id: string }>("/api-key/create", { prefix: "p".repeat(33) });
    expect(long.json).toMatchObject({ code: "INVALID_PREFIX_LENGTH" });
    const made = await browser.post<{ id: string }>("/api-key/create", {});
    expect((await browser.post("/api-key/update", { keyId: made.json!.id, name: "" })).json).toMatchObject({ code: "INVALID_NAME_LENGTH" });
  });

  it("remaining: 0 is the least a server may create with, 1 the least it may update to", async () => {
    const api = t.auth.api as unknown as Record<string, (a: unknown) => Promise<unknown>>;
    await expect(api.createApiKey!({ body: { userId, remaining: -1 } })).rejects.toMatchObject({ status: 400 });
    const zero = await serverCreate(t, { userId, remaining: 0 });
    await expect(api.updateApiKey!({ body: { keyId: zero.id, userId, remaining: 0 } })).rejects.toMatchObject({ status: 400 });
    await expect(api.updateApiKey!({ body: { keyId: zero.id, userId, remaining: 1 } })).resolves.toMatchObject({ remaining: 1 });
  });
});

describe("the rate-limit window (rateLimitTimeWindow in ms)", () => {
  it("runs from its first request: just inside it the limit holds, just past it a new window opens (row 101)", async () => {
    const made = await serverCreate(t, { userId, rateLimitMax: 2, rateLimitTimeWindow: 60_000 });
    expect((await verify(t, { key: made.key })).valid).toBe(true);
    expect((await verify(t, { key: made.key })).valid).toBe(true);
    await setColumns(made.id, { lastRequest: new Date(Date.now() - 59_000) });
    const inside = await verify(t, { key: made.key });
    expect(inside).toMatchObject({ valid: false, error: { code: "RATE_LIMITED" } });
    const wait = (inside.error as unknown as { details: { tryAgainIn: number } }).details.tryAgainIn;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(1_000);
    await setColumns(made.id, { lastRequest: new Date(Date.now() - 60_001) });
    expect((await verify(t, { key: made.key })).valid).toBe(true);
    expect(await row(made.id)).toMatchObject({ requestCount: 1 });
  });

  it("a counted request does not move the window's start", async () => {
    const made = await serverCreate(t, { userId, rateLimitMax: 5, rateLimitTimeWindow: 60_000 });
    await verify(t, { key: made.key });
    const start = (await row(made.id))!.lastRequest!;
    await verify(t, { key: made.key });
    expect((await row(made.id))!.lastRequest!.getTime()).toBe(new Date(start).getTime());
  });

  it("rateLimitMax 0 allows no request (the reference lets one per window through)", async () => {
    const made = await serverCreate(t, { userId, rateLimitMax: 0, rateLimitTimeWindow: 60_000 });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: false, error: { code: "RATE_LIMITED" } });
  });

  it("rateLimitEnabled false: no limit, the last use is still recorded", async () => {
    const made = await serverCreate(t, { userId, rateLimitEnabled: false, rateLimitMax: 1 });
    for (let i = 0; i < 3; i++) expect((await verify(t, { key: made.key })).valid).toBe(true);
    expect((await row(made.id))!.lastRequest).not.toBeNull();
  });
});

describe("refills (refillInterval in ms, refillAmount)", () => {
  it("not due at the interval, due just past it; the refilling request takes one of the new amount", async () => {
    const made = await serverCreate(t, { userId, rateLimitEnabled: false, remaining: 0, refillAmount: 3, refillInterval: 60_000 });
    await setColumns(made.id, { createdAt: new Date(Date.now() - 59_000) });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: false, error: { code: "USAGE_EXCEEDED" } });
    await setColumns(made.id, { createdAt: new Date(Date.now() - 60_500) });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, key: { remaining: 2 } });
    expect((await row(made.id))!.lastRefillAt).not.toBeNull();
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, key: { remaining: 1 } });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, key: { remaining: 0 } });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: false, error: { code: "USAGE_EXCEEDED" } });
    // Still there: a key that refills is not deleted when it runs out.
    expect(await row(made.id)).not.toBeNull();
  });

  it("a key created with a refill but no remaining starts with refillAmount uses (row 107)", async () => {
    const made = await serverCreate(t, { userId, rateLimitEnabled: false, refillAmount: 2, refillInterval: 60_000 });
    expect(made.remaining).toBe(2);
    expect((await verify(t, { key: made.key })).valid).toBe(true);
    expect((await verify(t, { key: made.key })).valid).toBe(true);
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: false, error: { code: "USAGE_EXCEEDED" } });
    const unlimited = await serverCreate(t, { userId, refillAmount: 2, refillInterval: 60_000, remaining: null });
    expect(unlimited.remaining).toBeNull();
  });

  it("refillAmount and refillInterval come together", async () => {
    const api = t.auth.api as unknown as Record<string, (a: unknown) => Promise<unknown>>;
    await expect(api.createApiKey!({ body: { userId, refillAmount: 5 } })).rejects.toMatchObject({ body: { code: "REFILL_AMOUNT_AND_INTERVAL_REQUIRED" } });
    await expect(api.createApiKey!({ body: { userId, refillInterval: 5 } })).rejects.toMatchObject({ body: { code: "REFILL_INTERVAL_AND_AMOUNT_REQUIRED" } });
  });
});
