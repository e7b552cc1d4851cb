import { createAuth, type Auth } from "@latchkey/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyAdapter, type KyselyAdapter } from "../src/index.js";
import { freshMysql, freshPostgres, freshSqlite } from "./support/databases.js";

/**
 * Rate limiting with `storage: "database"` on real databases, through `auth.handler`. The
 * security property (spec, Limits): each request is decided in one atomic step, so 200
 * parallel requests against a limit of 10 let exactly 10 through.
 */

type Fresh = () => Promise<{ input: Parameters<typeof kyselyAdapter>[0]; teardown(): Promise<void> }>;

const dialects: Array<[string, Fresh]> = [
  [
    "sqlite",
    async () => {
      const { database, remove } = freshSqlite();
      return { input: database, teardown: async () => remove() };
    },
  ],
  [
    "postgres",
    async () => {
      const { pool, drop } = await freshPostgres();
      return { input: pool, teardown: drop };
    },
  ],
  [
    "mariadb",
    async () => {
      const { pool, drop } = await freshMysql();
      return { input: pool, teardown: drop };
    },
  ],
];

const BASE = "http://localhost:3000";

for (const [name, fresh] of dialects) {
  describe(`rate limit on ${name} (storage: "database")`, () => {
    let auth: Auth;
    let teardown: () => Promise<void>;
    const send = (path: string, ip: string) =>
      auth.handler(new Request(`${BASE}/api/auth${path}`, { headers: { "x-forwarded-for": ip } }));

    beforeAll(async () => {
      const db = await fresh();
      teardown = db.teardown;
      auth = createAuth({
        database: kyselyAdapter(db.input),
        secret: "a-kysely-rate-limit-secret-0123456789-abcdefg",
        baseURL: BASE,
        logger: { disabled: true },
        rateLimit: {
          enabled: true,
          storage: "database",
          modelName: "rate_limit_entries",
          customRules: { "/ok": { window: 60, max: 10 }, "/get-session": { window: 1, max: 2 } },
        },
      });
      await auth.createTables();
    });
    afterAll(async () => {
      await (auth.$context.adapter as KyselyAdapter).close?.();
      await teardown();
    });

    it("200 parallel requests against a limit of 10 let exactly 10 through", async () => {
      const responses = await Promise.all(Array.from({ length: 200 }, () => send("/ok", "203.0.113.7")));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(190);
      const refused = responses.find((r) => r.status === 429)!;
      expect(Number(refused.headers.get("x-retry-after"))).toBeGreaterThan(55);
      const adapter = auth.$context.adapter as KyselyAdapter;
      const q = (name: string): string => (adapter.type === "mysql" ? `\`${name}\`` : `"${name}"`);
      const rows = await adapter.query(`SELECT ${q("key")}, ${q("count")} FROM ${q("rate_limit_entries")}`);
      expect(rows.map((r) => [r.key, Number(r.count)])).toEqual([["203.0.113.7|/ok", 10]]);
    });

    it("a burst right after the window has passed restarts it exactly once", async () => {
      const ip = "198.51.100.20";
      expect([(await send("/get-session", ip)).status, (await send("/get-session", ip)).status]).toEqual([
        200, 200,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 1050));
      const statuses = (await Promise.all(Array.from({ length: 50 }, () => send("/get-session", ip)))).map(
        (r) => r.status,
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    });
  });
}
