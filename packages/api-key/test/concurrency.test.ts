import { createHash, randomUUID } from "node:crypto";
import { createAuth, type Auth, type LatchkeyOptions, type SecondaryStorage } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { redisStorage } from "@latchkey/redis-storage";
import { TEST_BASE_URL, TEST_SECRET, testDatabase, type DatabaseKind, type TestDatabase } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKey, type ApiKeyOptions } from "../src/index.ts";
import { PASSWORD } from "./instance.ts";

/** Two `createAuth` instances on one database (and one secondary storage when given). */
async function twoInstances(db: TestDatabase, plugin: ApiKeyOptions, extra: Partial<LatchkeyOptions> = {}): Promise<[Auth, Auth]> {
  const make = () =>
    createAuth({
      database: kyselyAdapter(db.driver),
      secret: TEST_SECRET,
      baseURL: TEST_BASE_URL,
      emailAndPassword: { enabled: true },
      logger: { disabled: true },
      ...extra,
      plugins: [apiKey({ enableSessionForAPIKeys: true, ...plugin })],
    });
  const a = make();
  await a.createTables();
  return [a, make()];
}

const api = (auth: Auth) => auth.api as unknown as Record<string, (args: unknown) => Promise<Record<string, unknown>>>;

/** A user on `auth` and a key made for it from server code with `body`. */
async function userKey(auth: Auth, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const response = await auth.handler(
    new Request(`${TEST_BASE_URL}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `burst-${randomUUID()}@example.com`, password: PASSWORD, name: "Burst" }),
    }),
  );
  const { user } = (await response.json()) as { user: { id: string } };
  return (await api(auth).createApiKey!({ body: { userId: user.id, ...body } })) as unknown as { id: string; key: string };
}

/** `n` requests authenticated by `key`, alternating between the instances, all in flight at once; the statuses. */
async function burst(instances: [Auth, Auth], key: string, n = 200): Promise<number[]> {
  const one = async (i: number) => {
    const response = await instances[i % 2]!.handler(new Request(`${TEST_BASE_URL}/api/auth/get-session`, { headers: { "x-api-key": key } }));
    await response.arrayBuffer();
    return response.status;
  };
  return Promise.all(Array.from({ length: n }, (_, i) => one(i)));
}

const tally = (statuses: number[]) => ({ ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length });

const KINDS: DatabaseKind[] = ["sqlite", "postgres", "mysql"];

describe.each(KINDS)("exact limits under 200 parallel requests across two instances (%s)", (kind) => {
  let db: TestDatabase;
  let instances: [Auth, Auth];
  beforeAll(async () => {
    db = await testDatabase(kind);
    instances = await twoInstances(db, {});
  });
  afterAll(async () => {
    await instances[0].$context.adapter.close?.();
    await db.drop();
  });

  it("rateLimitMax 5: exactly 5 pass, the rest 429 RATE_LIMITED; refused requests take none of `remaining`", async () => {
    const made = await userKey(instances[0], { rateLimitMax: 5, rateLimitTimeWindow: 60_000, remaining: 100 });
    expect(tally(await burst(instances, made.key))).toEqual({ ok: 5, limited: 195 });
    const row = await instances[1].$context.adapter.findOne<{ requestCount: number; remaining: number }>({
      model: "apikey",
      where: [{ field: "id", value: made.id }],
    });
    expect(row).toMatchObject({ requestCount: 5, remaining: 95 });
  });

  it("remaining 7 (rate limit off): exactly 7 pass, remaining ends at 0, never below", async () => {
    const made = await userKey(instances[1], { rateLimitEnabled: false, remaining: 7 });
    const statuses = await burst(instances, made.key);
    // The rest are 429 USAGE_EXCEEDED, or 401 once a request found the key exhausted and
    // deleted it (the reference's rule for a key at 0 without refill).
    expect(tally(statuses).ok).toBe(7);
    expect(statuses.every((s) => s === 200 || s === 429 || s === 401)).toBe(true);
    const row = await instances[0].$context.adapter.findOne<{ remaining: number }>({ model: "apikey", where: [{ field: "id", value: made.id }] });
    if (row) expect(row.remaining).toBe(0);
  });

  it("a due refill is taken once: remaining 0, refillAmount 4 → exactly 4 pass", async () => {
    const made = await userKey(instances[0], { rateLimitEnabled: false, remaining: 0, refillAmount: 4, refillInterval: 60_000 });
    // Refill due: the key was last refilled (created) more than refillInterval ago.
    await instances[0].$context.adapter.update({
      model: "apikey",
      where: [{ field: "id", value: made.id }],
      update: { createdAt: new Date(Date.now() - 120_000) },
    });
    expect(tally(await burst(instances, made.key, 40))).toEqual({ ok: 4, limited: 36 });
  });
});

describe.each([
  ["secondary storage only", { storage: "secondary-storage" }],
  ["secondary storage with fallbackToDatabase", { storage: "secondary-storage", fallbackToDatabase: true }],
] as const)("exact limits on Redis, two instances (%s)", (_name, plugin) => {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  let storage: ReturnType<typeof redisStorage>;
  let db: TestDatabase;
  let instances: [Auth, Auth];
  beforeAll(async () => {
    await redis.connect();
    storage = redisStorage({ client: redis, keyPrefix: `lk-api-key-${randomUUID()}:` });
    db = await testDatabase("sqlite");
    instances = await twoInstances(db, plugin, { secondaryStorage: storage as SecondaryStorage });
  });
  afterAll(async () => {
    await storage.clear();
    redis.disconnect();
    await db.close();
  });

  it("rateLimitMax 5: exactly 5 of 200 pass", async () => {
    const made = await userKey(instances[0], { rateLimitMax: 5, rateLimitTimeWindow: 60_000, remaining: 100 });
    expect(tally(await burst(instances, made.key))).toEqual({ ok: 5, limited: 195 });
  });

  it("a due refill under a burst: remaining 0, refillAmount 4 → exactly 4 of 40 pass", async () => {
    const made = await userKey(instances[0], { rateLimitEnabled: false, remaining: 0, refillAmount: 4, refillInterval: 60_000 });
    // The key was created (last refilled) two minutes ago: in the database row, and in the
    // stored copies under its id and its digest.
    const createdAt = new Date(Date.now() - 120_000);
    await instances[0].$context.adapter.update({ model: "apikey", where: [{ field: "id", value: made.id }], update: { createdAt } });
    const digest = createHash("sha256").update(made.key).digest("base64url");
    for (const name of [`api-key:by-id:${made.id}`, `api-key:${digest}`]) {
      const stored = await storage.get(name);
      if (stored) await storage.set(name, JSON.stringify({ ...JSON.parse(stored), createdAt: createdAt.toISOString() }));
    }
    expect(tally(await burst(instances, made.key, 40)).ok).toBe(4);
  });

  it("remaining 7: exactly 7 pass, and the key answers remaining 0", async () => {
    const made = await userKey(instances[1], { rateLimitEnabled: false, remaining: 7 });
    const statuses = await burst(instances, made.key);
    expect(tally(statuses).ok).toBe(7);
    expect(statuses.every((s) => s === 200 || s === 429 || s === 401)).toBe(true);
    const verdict = await api(instances[0]).verifyApiKey!({ body: { key: made.key } });
    expect(verdict).toMatchObject({ valid: false, error: { code: "USAGE_EXCEEDED" } });
  });
});
