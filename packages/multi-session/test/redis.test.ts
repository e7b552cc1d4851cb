import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import { testAuth, type TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multiSession } from "../src/index.ts";
import { activeEmail, client, listedEmails, multiCookies, multiName, signUp } from "./instance.ts";

// Sessions live in Redis only: every read and delete goes through secondary storage.
const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
const storage = redisStorage({ client: redis, keyPrefix: `lk-multi-session-${randomUUID()}:` });
let t: TestAuth;
beforeAll(async () => {
  await redis.connect();
  t = await testAuth(
    { emailAndPassword: { enabled: true }, secondaryStorage: storage, plugins: [multiSession()] },
    { db: "sqlite" },
  );
});
afterAll(async () => {
  await t.close();
  await storage.clear();
  redis.disconnect();
});

describe("sessions in Redis secondary storage", () => {
  it("lists, switches, revokes and signs out the whole browser", async () => {
    const browser = client(t.auth);
    const a = await signUp(browser, "redis-a");
    const b = await signUp(browser, "redis-b");
    const c = await signUp(browser, "redis-c");
    expect(await listedEmails(browser)).toEqual(["userredis-a@example.com", "userredis-b@example.com", "userredis-c@example.com"]);
    expect((await browser.post("/multi-session/set-active", { sessionToken: a })).status).toBe(200);
    expect(await activeEmail(browser)).toBe("userredis-a@example.com");
    expect((await browser.post("/multi-session/revoke", { sessionToken: b })).json).toEqual({ status: true });
    expect(await t.auth.$context.internalAdapter.findSession(b)).toBeNull();
    expect(multiCookies(browser)).toEqual([a, c].map(multiName).sort());
    await browser.post("/sign-out");
    for (const token of [a, c]) expect(await t.auth.$context.internalAdapter.findSession(token)).toBeNull();
    expect(multiCookies(browser)).toEqual([]);
  });
});
