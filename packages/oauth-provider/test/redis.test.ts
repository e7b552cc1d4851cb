import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import type { TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, authorizeCode, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

// Authorization codes are verification values: with secondary storage they live in Redis only.
const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
const prefix = `lk-oauth-provider-${randomUUID()}:`;
const storage = redisStorage({ client: redis, keyPrefix: prefix });
let t: TestAuth;
beforeAll(async () => {
  await redis.connect();
  t = await providerInstance({}, "sqlite", { secondaryStorage: storage, session: { storeSessionInDatabase: true } });
});
afterAll(async () => {
  await t.close();
  await storage.clear();
  redis.disconnect();
});

describe("codes in Redis secondary storage", () => {
  it("the code is a Redis key, and 10 parallel redemptions give one token set", async () => {
    const browser = await signedIn(t);
    const c = await adminClient(t);
    const basic = { id: c.client_id, secret: c.client_secret! };
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge);
    // No verification table at all with storage-only verification values: the code is a Redis key.
    expect(await redis.keys(`${prefix}verification:*`)).toHaveLength(1);
    const form = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT };
    const answers = await Promise.all(Array.from({ length: 10 }, () => formPost(browser, "/oauth2/token", form, basic)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
  });

  it("a wrong verifier leaves the code in Redis for its holder (row 108)", async () => {
    const browser = await signedIn(t, { email: "r2@example.com", password: "correct horse battery", name: "R2" });
    const c = await adminClient(t);
    const basic = { id: c.client_id, secret: c.client_secret! };
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge);
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT };
    expect((await formPost(browser, "/oauth2/token", { ...form, code_verifier: `${verifier}x` }, basic)).status).toBe(400);
    expect((await formPost(browser, "/oauth2/token", { ...form, code_verifier: verifier }, basic)).status).toBe(200);
  });
});

describe("secondary storage without sessions in the database", () => {
  it("is refused: tokens are bound to session rows", async () => {
    const bad = await providerInstance({}, "sqlite", { secondaryStorage: storage });
    try {
      await expect(bad.auth.api.getSession({ headers: new Headers() })).rejects.toThrow("session.storeSessionInDatabase must be true");
    } finally {
      await bad.close();
    }
  });
});
