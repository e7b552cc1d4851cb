import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth, type Auth } from "@latchkey/core";
import { kyselyAdapter, type DatabaseInput } from "../src/index.js";
import { freshMysql, freshPostgres, freshSqlite } from "./support/databases.js";

/**
 * The account lifecycle through `auth.handler` on every SQL dialect: the routes core tests
 * on the memory adapter, here against real SQLite, PostgreSQL and MariaDB.
 */
const dialects: Array<[string, () => Promise<{ db: DatabaseInput; cleanup(): Promise<void> }>]> = [
  ["sqlite", async () => {
    const s = freshSqlite();
    return { db: s.database, cleanup: async () => { s.database.close(); s.remove(); } };
  }],
  ["postgres", async () => {
    const p = await freshPostgres();
    return { db: p.pool, cleanup: () => p.drop() };
  }],
  ["mysql", async () => {
    const m = await freshMysql();
    return { db: m.pool, cleanup: () => m.drop() };
  }],
];

const BASE = "http://localhost:3000/api/auth";
const user = { name: "Dialect User", email: "dialect@example.com", password: "dialect-password-1" };

for (const [name, open] of dialects) {
  describe(`account lifecycle over HTTP on ${name}`, () => {
    let auth: Auth;
    let cleanup: () => Promise<void>;
    const outbox: Array<{ url: string; token: string }> = [];
    const post = (path: string, body: unknown, cookie?: string) =>
      auth.handler(
        new Request(`${BASE}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
          body: JSON.stringify(body),
        }),
      );
    const get = (path: string, cookie?: string) => auth.handler(new Request(`${BASE}${path}`, { headers: cookie ? { cookie } : {} }));
    const cookieOf = (res: Response) =>
      res.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="))!.split(";")[0]!;

    beforeAll(async () => {
      const opened = await open();
      cleanup = opened.cleanup;
      auth = createAuth({
        database: kyselyAdapter(opened.db),
        secret: "dialect-secret-that-is-long-enough-0123456789",
        baseURL: "http://localhost:3000",
        emailAndPassword: {
          enabled: true,
          sendResetPassword: async ({ url, token }) => void outbox.push({ url, token }),
        },
        user: { additionalFields: { plan: { type: "string", defaultValue: "free", input: false } } },
        logger: { disabled: true },
      });
      await auth.createTables();
    });
    afterAll(async () => {
      await auth.$context.adapter.close?.();
      await cleanup();
    });

    it("signs up, reads the session, updates the profile, lists and revokes sessions", async () => {
      const signUp = await post("/sign-up/email", user);
      expect(signUp.status).toBe(200);
      expect((await signUp.json()).user).toMatchObject({ email: user.email, emailVerified: false, plan: "free" });
      const cookie = cookieOf(signUp);
      const session = await (await get("/get-session", cookie)).json();
      expect(session.user.email).toBe(user.email);
      expect(typeof session.session.expiresAt).toBe("string");

      expect(await (await post("/update-user", { name: "Renamed" }, cookie)).json()).toEqual({ status: true });
      expect((await (await get("/get-session", cookie)).json()).user.name).toBe("Renamed");

      const second = await post("/sign-in/email", { email: user.email, password: user.password });
      expect(second.status).toBe(200);
      expect(await (await get("/list-sessions", cookie)).json()).toHaveLength(2);
      await post("/revoke-other-sessions", {}, cookie);
      expect(await (await get("/list-sessions", cookie)).json()).toHaveLength(1);
      expect(await (await get("/get-session", cookieOf(second))).json()).toBeNull();
    });

    it("changes the password, then resets it with a single-use token", async () => {
      const signIn = await post("/sign-in/email", { email: user.email, password: user.password });
      const cookie = cookieOf(signIn);
      const changed = await post("/change-password", { currentPassword: user.password, newPassword: "changed-password-1" }, cookie);
      expect(changed.status).toBe(200);
      expect((await post("/sign-in/email", { email: user.email, password: "changed-password-1" })).status).toBe(200);

      expect((await post("/request-password-reset", { email: user.email, redirectTo: "/reset" })).status).toBe(200);
      const { token } = outbox.at(-1)!;
      const attempts = await Promise.all(
        Array.from({ length: 10 }, () => post("/reset-password", { token, newPassword: "reset-password-1" })),
      );
      expect(attempts.filter((r) => r.status === 200)).toHaveLength(1);
      expect((await post("/sign-in/email", { email: user.email, password: "reset-password-1" })).status).toBe(200);
      expect((await post("/sign-in/email", { email: user.email, password: "changed-password-1" })).status).toBe(401);
    });

    it("refuses bad input without writing", async () => {
      const count = async () => (await auth.$context.adapter.count({ model: "user" })) + (await auth.$context.adapter.count({ model: "account" }));
      const before = await count();
      for (const body of [{}, { ...user, email: "nope" }, { ...user, password: "short" }, { ...user, name: 1 }]) {
        const res = await post("/sign-up/email", body);
        expect(res.status).toBe(400);
      }
      expect((await post("/sign-up/email", user)).status).toBe(422);
      expect(await count()).toBe(before);
    });
  });
}
