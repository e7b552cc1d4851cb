import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import { client, testAuth, type TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passkey } from "../src/index.ts";
import { assertion, browser, ORIGIN, register, signInWithPasskey, signUp, SoftwareAuthenticator } from "./instance.ts";

// Challenges are verification values: with secondary storage they live in Redis only, and a
// verification takes them with one atomic get-and-delete.
const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
const storage = redisStorage({ client: redis, keyPrefix: `lk-passkey-${randomUUID()}:` });
let t: TestAuth;
beforeAll(async () => {
  await redis.connect();
  t = await testAuth(
    { emailAndPassword: { enabled: true }, secondaryStorage: storage, plugins: [passkey()] },
    { db: "sqlite" },
  );
});
afterAll(async () => {
  await t.close();
  await storage.clear();
  redis.disconnect();
});

describe("challenges in Redis secondary storage", () => {
  it("registers and signs in", async () => {
    const b = browser(t);
    await signUp(b, "redis@example.com");
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    expect((await register(b, key)).status).toBe(200);
    expect((await signInWithPasskey(client(t.auth, { origin: ORIGIN }), key)).status).toBe(200);
  });

  it("redeems one challenge once among 10 parallel requests", async () => {
    const b = browser(t);
    await signUp(b, "redis-race@example.com");
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    expect((await register(b, key)).status).toBe(200);
    const { response } = await assertion(b, key);
    const cookie = b.jar.header()!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client(t.auth, { origin: ORIGIN }).post("/passkey/verify-authentication", { response }, { headers: { cookie } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(400)]);
  });
});
