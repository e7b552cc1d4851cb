import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import { testAuth, type DatabaseKind, type TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTimeToken } from "../src/index.ts";
import { generate, ottInstance, redeemInParallel, signedIn } from "./instance.ts";

// Single use: one token sent by ten clients at once signs in exactly once.
describe.each<DatabaseKind>(["sqlite", "postgres", "mysql"])("ten parallel redemptions on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await ottInstance(kind, { storeToken: "hashed" });
  });
  afterAll(() => t.close());

  it("one 200, nine 400, and the row is gone", async () => {
    const token = await generate((await signedIn(t, `race-${kind}`)).browser);
    const statuses = await redeemInParallel(t, token);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(9);
    expect(await t.auth.$context.adapter.count({ model: "verification" })).toBe(0);
  });
});

describe("ten parallel redemptions with Redis secondary storage", () => {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  const storage = redisStorage({ client: redis, keyPrefix: `lk-ott-${randomUUID()}:` });
  let t: TestAuth;
  beforeAll(async () => {
    await redis.connect();
    t = await testAuth(
      { emailAndPassword: { enabled: true }, secondaryStorage: storage, plugins: [oneTimeToken()] },
      { db: "sqlite" },
    );
  });
  afterAll(async () => {
    await t.close();
    await storage.clear();
    redis.disconnect();
  });

  it("the token lives in Redis only, and one of ten redemptions wins", async () => {
    const token = await generate((await signedIn(t, "race-redis")).browser);
    expect(await storage.get(`verification:one-time-token:${token}`)).not.toBeNull();
    const statuses = await redeemInParallel(t, token);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(await storage.get(`verification:one-time-token:${token}`)).toBeNull();
  });
});
