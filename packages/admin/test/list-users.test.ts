import { createAuth, type Adapter, type AdapterFactory, type Auth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { client, TEST_BASE_URL, TEST_SECRET, testDatabase, type TestDatabase } from "@latchkey/test-support";
import type Database from "better-sqlite3";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin } from "../src/index.ts";
import { PASSWORD } from "./instance.ts";

const USERS = 10_000;
const pad = (i: number): string => String(i).padStart(5, "0");

/** Every read of the user table the plugin makes, to show it reads one page at a time. */
interface Recorded {
  findMany: { where?: unknown; limit?: number; offset?: number }[];
  rowsRead: number;
}

/**
 * The Kysely adapter with its user page reads recorded, `findMany` or (SQLite) `findPage`
 * (a Proxy, so nothing of the adapter changes).
 */
function recording(factory: AdapterFactory, recorded: Recorded): AdapterFactory {
  return (init) => {
    const adapter = factory(init);
    return new Proxy(adapter, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if ((key !== "findMany" && key !== "findPage") || typeof value !== "function") return value;
        return async (args: Parameters<Adapter["findMany"]>[0]) => {
          const answer = (await (value as Adapter["findMany"]).call(target, args)) as unknown[] | { rows: unknown[] };
          const rows = Array.isArray(answer) ? answer : answer.rows;
          if (args.model === "user") {
            recorded.findMany.push({ where: args.where, limit: args.limit, offset: args.offset });
            recorded.rowsRead += rows.length;
          }
          return answer;
        };
      },
    });
  };
}

/** 10,000 users in one statement or transaction: `userNNNNN@example.com`, every tenth an admin. */
async function seed(db: TestDatabase): Promise<void> {
  if (db.kind === "postgres") {
    await (db.driver as pg.Pool).query(`
      INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt", "role", "banned")
      SELECT 'seed' || lpad(i::text, 5, '0'), 'Name ' || lpad(i::text, 5, '0'), 'user' || lpad(i::text, 5, '0') || '@example.com',
             false, now(), now(), CASE WHEN i % 10 = 0 THEN 'admin' ELSE 'user' END, false
      FROM generate_series(1, ${USERS}) AS i`);
    return;
  }
  const sqlite = db.driver as Database.Database;
  const insert = sqlite.prepare(
    `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt", "role", "banned") VALUES (?, ?, ?, 0, ?, ?, ?, 0)`,
  );
  const now = new Date().toISOString();
  sqlite.transaction(() => {
    for (let i = 1; i <= USERS; i++) {
      insert.run(`seed${pad(i)}`, `Name ${pad(i)}`, `user${pad(i)}@example.com`, now, now, i % 10 === 0 ? "admin" : "user");
    }
  })();
}

interface Page {
  users: { email: string; role: string }[];
  total: number;
  limit?: number;
  offset?: number;
}

describe.each(["sqlite", "postgres"] as const)("list-users over 10,000 users on %s", (kind) => {
  let db: TestDatabase;
  let auth: Auth;
  let browser: ReturnType<typeof client>;
  const recorded: Recorded = { findMany: [], rowsRead: 0 };

  beforeAll(async () => {
    db = await testDatabase(kind);
    auth = createAuth({
      secret: TEST_SECRET,
      baseURL: TEST_BASE_URL,
      logger: { disabled: true },
      emailAndPassword: { enabled: true },
      plugins: [admin()],
      database: recording(kyselyAdapter(db.driver), recorded),
    });
    await auth.createTables();
    await seed(db);
    browser = client(auth);
    const up = await browser.post<{ user: { id: string } }>("/sign-up/email", { email: "lister@example.com", password: PASSWORD, name: "Lister" });
    await auth.$context.internalAdapter.updateUser(up.json!.user.id, { role: "admin" } as never);
  }, 120_000);
  afterAll(async () => {
    await auth?.$context.adapter.close?.();
    await db?.drop();
  });

  const list = async (query: string): Promise<Page> => {
    recorded.findMany.length = 0;
    recorded.rowsRead = 0;
    const answer = await browser.get<Page>(`/admin/list-users?${query}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.json!;
  };

  it("pages a search sorted by email: every match once, in order, total exact, one page read per request", async () => {
    const expected = Array.from({ length: 1000 }, (_, i) => `user${pad(1000 + i)}@example.com`).reverse();
    const seen: string[] = [];
    for (let offset = 0; offset < 1100; offset += 128) {
      const page = await list(
        `searchValue=user01&searchField=email&searchOperator=starts_with&sortBy=email&sortDirection=desc&limit=128&offset=${offset}`,
      );
      expect(page.total).toBe(1000);
      expect(page.users.length).toBe(Math.max(0, Math.min(128, 1000 - offset)));
      // The adapter did the work: one read with the where and the paging, no more rows than a page.
      expect(recorded.findMany).toEqual([
        { where: [{ field: "email", operator: "starts_with", value: "user01" }], limit: 128, offset: offset || undefined },
      ]);
      expect(recorded.rowsRead).toBeLessThanOrEqual(128);
      seen.push(...page.users.map((u) => u.email));
    }
    expect(seen).toEqual(expected);
  });

  it("combines a search with a filter, and counts everything without a search", async () => {
    const admins = await list("searchValue=Name%2001&searchField=name&filterField=role&filterValue=admin&limit=500");
    expect(admins.total).toBe(100);
    expect(admins.users).toHaveLength(100);
    expect(admins.users.every((u) => u.role === "admin")).toBe(true);
    const everyone = await list("limit=10");
    expect(everyone.total).toBe(USERS + 1);
    expect(everyone.users).toHaveLength(10);
    expect(everyone.limit).toBe(10);
    const contains = await list("searchValue=9999&limit=5");
    expect(contains.total).toBe(1);
    expect(contains.users[0]!.email).toBe("user09999@example.com");
  });

  it("an unknown sort or filter field matches nothing, as the reference's caught error does", async () => {
    expect(await list("sortBy=password&limit=5")).toEqual({ users: [], total: 0 });
    expect(await list("filterField=nope&filterValue=1")).toEqual({ users: [], total: 0 });
    expect(recorded.findMany).toEqual([]);
  });
});
