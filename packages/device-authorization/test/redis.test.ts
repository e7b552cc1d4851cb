import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import { testAuth, type TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceAuthorization } from "../src/index.ts";
import { claimAndApprove, issue, poll, signedIn } from "./instance.ts";

// With secondary storage the device's session is stored there like any other session; the
// deviceCode rows stay in the database.
describe("device flow with Redis secondary storage", () => {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  const storage = redisStorage({ client: redis, keyPrefix: `lk-device-${randomUUID()}:` });
  let t: TestAuth;
  beforeAll(async () => {
    await redis.connect();
    t = await testAuth(
      { emailAndPassword: { enabled: true }, rateLimit: { enabled: false }, secondaryStorage: storage, plugins: [deviceAuthorization()] },
      { db: "sqlite" },
    );
  });
  afterAll(async () => {
    await t.close();
    await storage.clear();
    redis.disconnect();
  });

  it("the access token is a session in Redis; ten parallel polls still yield one", async () => {
    const codes = await issue(t);
    const { browser } = await signedIn(t, "redis-user");
    await claimAndApprove(browser, codes.user_code);
    const answers = await Promise.all(Array.from({ length: 10 }, () => poll(t, codes.device_code)));
    const granted = answers.filter((a) => a.status === 200);
    expect(granted).toHaveLength(1);
    const token = String(granted[0]!.json!.access_token);
    expect(await storage.get(token)).not.toBeNull();
    expect(await t.auth.$context.internalAdapter.findSession(token)).not.toBeNull();
  });
});
