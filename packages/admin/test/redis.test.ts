import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import type { TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminInstance, client, member, PASSWORD, raceStopImpersonating, sessionGap, type Member } from "./instance.ts";

// Sessions in Redis, and in the database too (`storeSessionInDatabase`), so the guarded
// claim of stop-impersonating applies; a ban must end the sessions in both stores.
const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
const storage = redisStorage({ client: redis, keyPrefix: `lk-admin-${randomUUID()}:` });
let t: TestAuth;
let root: Member;
const gap = sessionGap();
beforeAll(async () => {
  await redis.connect();
  t = await adminInstance("sqlite", undefined, {
    secondaryStorage: storage,
    session: { storeSessionInDatabase: true },
    databaseHooks: gap.hooks,
  });
  root = await member(t, "redis-root", "admin");
});
afterAll(async () => {
  await t.close();
  await storage.clear();
  redis.disconnect();
});

describe("admin with sessions in Redis secondary storage", () => {
  it("a ban ends the sessions held in Redis and refuses the next sign-in", async () => {
    const target = await member(t, "redis-ban");
    expect((await target.browser.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(target.id);
    expect((await root.browser.post("/admin/ban-user", { userId: target.id })).status).toBe(200);
    expect(await t.auth.$context.internalAdapter.findSession(target.token)).toBeNull();
    expect((await target.browser.get("/get-session")).json).toBeNull();
    const again = await client(t.auth).post("/sign-in/email", { email: target.email, password: PASSWORD });
    expect(again.status).toBe(403);
  });

  it("a ban racing a sign-in leaves no session in Redis either", async () => {
    const target = await member(t, "redis-race");
    gap.next = async () => {
      expect((await root.browser.post("/admin/ban-user", { userId: target.id })).status).toBe(200);
    };
    const browser = client(t.auth);
    const answer = await browser.post("/sign-in/email", { email: target.email, password: PASSWORD });
    expect(answer.status).toBe(403);
    expect(await t.auth.$context.internalAdapter.listSessions(target.id)).toEqual([]);
    expect((await browser.get("/get-session")).json).toBeNull();
  });

  it("impersonation starts and stops once, with the session in both stores", async () => {
    const target = await member(t, "redis-imp");
    const { token, answers } = await raceStopImpersonating(t, root, target, 8);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await t.auth.$context.internalAdapter.findSession(token)).toBeNull();
  });
});
