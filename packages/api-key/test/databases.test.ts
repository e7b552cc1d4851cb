import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind, TestAuth } from "@latchkey/test-support";
import { apiKeyInstance, serverCreate, signedIn, verify, type CreatedKey } from "./instance.ts";

const KINDS: DatabaseKind[] = ["postgres", "mysql"];

describe.each(KINDS)("routes, verification and refills on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await apiKeyInstance(kind, { enableMetadata: true });
  });
  afterAll(() => t.close());

  it("create, get, list (sorted, paged), update and delete", async () => {
    const { browser } = await signedIn(t, `db-${kind}`);
    const made: CreatedKey[] = [];
    for (const name of ["beta", "alpha", "gamma"]) made.push((await browser.post<CreatedKey>("/api-key/create", { name, metadata: { name } })).json!);
    expect((await browser.get(`/api-key/get?id=${made[0]!.id}`)).json).toMatchObject({ name: "beta", metadata: { name: "beta" } });
    const page = await browser.get<{ apiKeys: { name: string }[]; total: number }>("/api-key/list?sortBy=name&sortDirection=asc&limit=2&offset=1");
    expect(page.json).toMatchObject({ total: 3, apiKeys: [{ name: "beta" }, { name: "gamma" }] });
    expect((await browser.post("/api-key/update", { keyId: made[1]!.id, name: "delta", expiresIn: 5 * 86_400 })).json).toMatchObject({ name: "delta" });
    expect((await browser.post("/api-key/delete", { keyId: made[2]!.id })).json).toEqual({ success: true });
    expect((await browser.get<{ total: number }>("/api-key/list")).json!.total).toBe(2);
  });

  it("a second refill compares the stored lastRefillAt exactly (date precision of the database)", async () => {
    const { userId } = await signedIn(t, `refill-${kind}`);
    const made = await serverCreate(t, { userId, rateLimitEnabled: false, remaining: 0, refillAmount: 2, refillInterval: 60_000 });
    const age = (update: Record<string, Date>) =>
      t.auth.$context.adapter.update({ model: "apikey", where: [{ field: "id", value: made.id }], update });
    await age({ createdAt: new Date(Date.now() - 120_000) });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, key: { remaining: 1 } });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, key: { remaining: 0 } });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: false, error: { code: "USAGE_EXCEEDED" } });
    await age({ lastRefillAt: new Date(Date.now() - 61_000) });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, key: { remaining: 1 } });
  });

  it("rate-limit windows: within one 2 pass, the next window opens after it", async () => {
    const { userId } = await signedIn(t, `window-${kind}`);
    const made = await serverCreate(t, { userId, rateLimitMax: 2, rateLimitTimeWindow: 60_000 });
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push((await verify(t, { key: made.key })).valid);
    expect(verdicts).toEqual([true, true, false]);
    await t.auth.$context.adapter.update({ model: "apikey", where: [{ field: "id", value: made.id }], update: { lastRequest: new Date(Date.now() - 60_001) } });
    expect((await verify(t, { key: made.key })).valid).toBe(true);
  });
});
