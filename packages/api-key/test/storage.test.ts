import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import type { TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyInstance, serverCreate, signedIn, verify, type CreatedKey } from "./instance.ts";

const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
beforeAll(() => redis.connect());
afterAll(() => redis.disconnect());

describe.each([
  ["secondary storage only", false],
  ["secondary storage with fallbackToDatabase", true],
] as const)("keys in Redis (%s)", (_name, fallbackToDatabase) => {
  let storage: ReturnType<typeof redisStorage>;
  let t: TestAuth;
  beforeAll(async () => {
    storage = redisStorage({ client: redis, keyPrefix: `lk-api-key-store-${randomUUID()}:` });
    t = await apiKeyInstance("sqlite", { storage: "secondary-storage", fallbackToDatabase, enableSessionForAPIKeys: true }, { secondaryStorage: storage });
  });
  afterAll(async () => {
    await t.close();
    await storage.clear();
  });

  const rows = () => t.auth.$context.adapter.count({ model: "apikey" });

  it("create, get, list, update, verify and delete under the reference's storage keys", async () => {
    const { browser, userId } = await signedIn(t, `redis-${fallbackToDatabase}`);
    const created = (await browser.post<CreatedKey>("/api-key/create", { name: "r1" })).json!;
    const keys = await storage.listKeys();
    expect(keys).toEqual(expect.arrayContaining([`api-key:by-id:${created.id}`, expect.stringMatching(/^api-key:[A-Za-z0-9_-]{43}$/)]));
    expect(await rows()).toBe(fallbackToDatabase ? 1 : 0);
    expect((await browser.get(`/api-key/get?id=${created.id}`)).json).toMatchObject({ id: created.id, name: "r1" });
    await browser.post("/api-key/create", { name: "r2" });
    const listed = await browser.get<{ apiKeys: { name: string }[]; total: number }>("/api-key/list?sortBy=name&sortDirection=desc");
    expect(listed.json!.apiKeys.map((k) => k.name)).toEqual(["r2", "r1"]);
    expect((await browser.post("/api-key/update", { keyId: created.id, name: "renamed" })).json).toMatchObject({ name: "renamed" });
    expect((await browser.get(`/api-key/get?id=${created.id}`)).json).toMatchObject({ name: "renamed" });
    const counted = await serverCreate(t, { userId, remaining: 3 });
    expect(await verify(t, { key: counted.key })).toMatchObject({ valid: true, key: { remaining: 2 } });
    expect((await browser.get(`/api-key/get?id=${counted.id}`)).json).toMatchObject({ remaining: 2 });
    const session = await t.auth.handler(new Request("http://localhost:3000/api/auth/get-session", { headers: { "x-api-key": counted.key } }));
    expect(((await session.json()) as { user: { id: string } }).user.id).toBe(userId);
    expect((await browser.post("/api-key/delete", { keyId: created.id })).json).toEqual({ success: true });
    expect((await browser.get(`/api-key/get?id=${created.id}`)).status).toBe(404);
    expect(await storage.get(`api-key:by-id:${created.id}`)).toBeNull();
  });

  it("update of remaining by the server starts a new allowance", async () => {
    const { userId } = await signedIn(t, `redis-remaining-${fallbackToDatabase}`);
    const made = await serverCreate(t, { userId, remaining: 2, rateLimitEnabled: false });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, key: { remaining: 1 } });
    const api = t.auth.api as unknown as Record<string, (a: unknown) => Promise<unknown>>;
    expect(await api.updateApiKey!({ body: { keyId: made.id, userId, remaining: 5 } })).toMatchObject({ remaining: 5 });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, key: { remaining: 4 } });
  });
});
