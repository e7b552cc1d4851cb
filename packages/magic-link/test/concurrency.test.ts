import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import type { DatabaseKind } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { client, magicInstance, requestLink } from "./instance.ts";

/** Ten browsers follow the same link at once: exactly one is signed in, the rest get INVALID_TOKEN. */
async function raceOneLink(t: Awaited<ReturnType<typeof magicInstance>>): Promise<void> {
  const mail = await requestLink(client(t.auth), t.outbox, { email: "race@example.com", callbackURL: "/in" });
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => client(t.auth).get(`/magic-link/verify?token=${mail.token}&callbackURL=/in`)),
  );
  const locations = answers.map((a) => a.headers.get("location"));
  expect(locations.filter((l) => l === "http://localhost:3000/in")).toHaveLength(1);
  expect(locations.filter((l) => l === "http://localhost:3000/in?error=INVALID_TOKEN")).toHaveLength(9);
  const withCookie = answers.filter((a) => a.response.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token=")));
  expect(withCookie).toHaveLength(1);
  const user = (await t.auth.$context.internalAdapter.findUserByEmail("race@example.com"))!.user;
  expect(await t.auth.$context.internalAdapter.listSessions(user.id)).toHaveLength(1);
}

describe.each<DatabaseKind>(["sqlite", "postgres", "mysql"])("one link redeemed by 10 parallel requests on %s", (db) => {
  it("signs in once", async () => {
    const t = await magicInstance(db, { storeToken: "hashed" });
    try {
      await raceOneLink(t);
    } finally {
      await t.close();
    }
  });
});

describe.each<DatabaseKind>(["sqlite", "postgres", "mysql"])("promotion of an unverified user on %s", (db) => {
  it("the password account and sessions are revoked, the email verified (the guarded boolean update works on the dialect)", async () => {
    const t = await magicInstance(db);
    try {
      const squatter = client(t.auth);
      const signUp = await squatter.post<{ user: { id: string } }>("/sign-up/email", {
        email: "promote@example.com",
        password: "password-1234",
        name: "S",
      });
      const userId = signUp.json!.user.id;
      const owner = client(t.auth);
      const mail = await requestLink(owner, t.outbox, { email: "promote@example.com" });
      const answer = await owner.get<{ user: { id: string; emailVerified: boolean } }>(`/magic-link/verify?token=${mail.token}`);
      expect(answer.json!.user).toMatchObject({ id: userId, emailVerified: true });
      expect(await t.auth.$context.internalAdapter.findAccounts(userId)).toEqual([]);
      expect((await squatter.get("/get-session")).json).toBeNull();
      expect((await t.auth.$context.internalAdapter.findUserById(userId))?.emailVerified).toBe(true);
    } finally {
      await t.close();
    }
  });

  it("two links of one unverified user redeemed at once: both sign in, neither revokes the other's new session", async () => {
    // Both promotions read the user as unverified and meet in an application account-delete
    // hook; the second then waits there until the first has opened its session.
    let arrive = (): void => undefined;
    let opened = (): void => undefined;
    const bothArrived = new Promise<void>((r) => (arrive = r));
    const firstSession = new Promise<void>((r) => (opened = r));
    const within = (p: Promise<void>) => Promise.race([p, new Promise<void>((r) => setTimeout(r, 5000))]);
    let armed = false;
    let deletes = 0;
    const t = await magicInstance(db, {}, {
      databaseHooks: {
        account: {
          delete: {
            before: async () => {
              if (++deletes === 2) arrive();
              await within(deletes === 1 ? bothArrived : firstSession);
            },
          },
        },
        session: { create: { after: async () => void (armed && opened()) } },
      },
    });
    try {
      const squatter = client(t.auth);
      await squatter.post("/sign-up/email", { email: "twice@example.com", password: "password-1234", name: "S" });
      const owners = [client(t.auth), client(t.auth)];
      const links: Awaited<ReturnType<typeof requestLink>>[] = [];
      for (const owner of owners) links.push(await requestLink(owner, t.outbox, { email: "twice@example.com" }));
      armed = true;
      const answers = await Promise.all(owners.map((owner, i) => owner.get(`/magic-link/verify?token=${links[i]!.token}`)));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(deletes).toBe(2);
      const sessions = await Promise.all(owners.map((owner) => owner.get<{ user: { emailVerified: boolean } } | null>("/get-session")));
      expect(sessions.map((s) => s.json?.user.emailVerified)).toEqual([true, true]);
      expect((await squatter.get("/get-session")).json).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe("with Redis secondary storage (verification values only in Redis)", () => {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  const storage = redisStorage({ client: redis, keyPrefix: `lk-magic-link-${randomUUID()}:` });
  afterAll(async () => {
    await storage.clear();
    redis.disconnect();
  });

  it("the token lives in Redis (no verification table at all); 10 parallel redemptions sign in once", async () => {
    await redis.connect();
    const t = await magicInstance("sqlite", {}, { secondaryStorage: storage });
    try {
      const mail = await requestLink(client(t.auth), t.outbox, { email: "stored@example.com" });
      expect(JSON.parse((await storage.get(`verification:${mail.token}`)) as string)).toMatchObject({
        identifier: mail.token,
        value: JSON.stringify({ email: "stored@example.com" }),
      });
      await raceOneLink(t);
    } finally {
      await t.close();
    }
  });
});
