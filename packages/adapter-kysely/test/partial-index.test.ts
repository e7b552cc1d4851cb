import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, resolveSchema, type Adapter, type SchemaDefinition } from "@latchkey/core";
import { kyselyAdapter } from "../src/index.js";
import { freshMysql, freshSqlite } from "./support/databases.js";

// A table of 1,000 rows of which a few hold comma-separated lists, with a partial index over
// those (core's `ModelIndex.where`), as @latchkey/sso declares for `ssoProvider.domain`. On
// SQLite and MariaDB the `contains ","` read must come from that index, never a table scan.
// (PostgreSQL: packages/sso/test/domain-lookup-explain.test.ts.)

const schema: SchemaDefinition = {
  tenant: {
    fields: { domain: { type: "string", required: true, index: true } },
    indexes: [{ fields: ["domain"], name: "tenant_domain_list_idx", where: { field: "domain", operator: "contains", value: "," } }],
  },
};
const resolved = resolveSchema([{ owner: "test", schema }]);
const LISTS = ["a.example, b.example", "c.example,d.example", "o'neil.example, e.example"];

async function seed(adapter: Adapter) {
  await adapter.createTables!();
  for (let i = 0; i < 1000; i++) await adapter.create({ model: "tenant", data: { id: `t${i}`, domain: `company-${i}.example` } });
  for (const [i, domain] of LISTS.entries()) await adapter.create({ model: "tenant", data: { id: `list${i}`, domain } });
}

const lists = async (adapter: Adapter) =>
  (await adapter.findMany<{ id: string; domain: string }>({ model: "tenant", where: [{ field: "domain", operator: "contains", value: "," }] }))
    .map((row) => row.domain)
    .sort();

describe("partial index on SQLite", () => {
  let db: ReturnType<typeof freshSqlite>;
  let adapter: Adapter;
  beforeAll(async () => {
    db = freshSqlite();
    adapter = kyselyAdapter(db.database)({ schema: resolved, logger: createLogger({ disabled: true }) });
    await seed(adapter);
    db.database.exec("ANALYZE");
  });
  afterAll(async () => {
    await adapter.close?.();
    db.remove();
  });

  it("is created with the predicate a `contains` clause sends", () => {
    const { sql } = db.database.prepare(`SELECT sql FROM sqlite_master WHERE name = 'tenant_domain_list_idx'`).get() as { sql: string };
    expect(sql).toMatch(/^create index "tenant_domain_list_idx" on "tenant" \("domain"\) where "domain" LIKE '%,%' ESCAPE '!'$/i);
  });

  it("the list rows are read through it, not by scanning the table", async () => {
    const statements: string[] = [];
    const prepare = db.database.prepare.bind(db.database);
    db.database.prepare = ((text: string) => {
      statements.push(text);
      return prepare(text);
    }) as typeof db.database.prepare;
    try {
      expect(await lists(adapter)).toEqual([...LISTS].sort());
    } finally {
      db.database.prepare = prepare;
    }
    const read = statements.find((s) => s.includes("LIKE"));
    expect(read).toContain(`LIKE '%,%' ESCAPE '!'`);
    const plan = db.database.prepare(`EXPLAIN QUERY PLAN ${read}`).all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join("\n")).toMatch(/USING (COVERING )?INDEX tenant_domain_list_idx/);
  });

  it("other `contains` reads still bind their pattern, and match quotes and LIKE characters literally", async () => {
    const quoted = await adapter.findMany<{ domain: string }>({ model: "tenant", where: [{ field: "domain", operator: "contains", value: "o'neil" }] });
    expect(quoted.map((r) => r.domain)).toEqual([LISTS[2]]);
    expect(await adapter.count({ model: "tenant", where: [{ field: "domain", operator: "contains", value: "%" }] })).toBe(0);
  });
});

describe("partial index on MariaDB (an invisible predicate column, indexed)", () => {
  let drop: () => Promise<void>;
  let pool: Awaited<ReturnType<typeof freshMysql>>["pool"];
  let adapter: Adapter;
  const query = <T>(text: string, values: unknown[] = []) =>
    new Promise<T[]>((resolve, reject) => pool.query(text, values, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
  beforeAll(async () => {
    ({ pool, drop } = await freshMysql());
    adapter = kyselyAdapter(pool)({ schema: resolved, logger: createLogger({ disabled: true }) });
    await seed(adapter);
    await query("ANALYZE TABLE tenant");
  }, 60_000);
  afterAll(async () => {
    await adapter.close?.();
    await drop();
  });

  it("`SELECT *` and column-less INSERTs do not see the column, so the reference's reads and writes are unchanged", async () => {
    const [row] = await query<Record<string, unknown>>("SELECT * FROM tenant WHERE id = 'list0'");
    expect(Object.keys(row!).sort()).toEqual(["domain", "id"]);
    await query("INSERT INTO tenant VALUES ('plain', 'x.example, y.example')");
    const [flag] = await query<{ rows: number }>("SELECT tenant_domain_list_idx_rows AS `rows` FROM tenant WHERE id = 'plain'");
    expect(flag!.rows).toBe(1);
    await query("DELETE FROM tenant WHERE id = 'plain'");
  });

  /** The read of the list rows `adapter` sends, as text, after checking its rows. */
  async function listRead(on: Adapter): Promise<string> {
    const statements: string[] = [];
    const original = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
      const [first] = args;
      const text = typeof first === "string" ? first : (first as { sql?: string }).sql;
      if (text) statements.push(text);
      return original(...args);
    };
    try {
      expect(await lists(on)).toEqual([...LISTS].sort());
    } finally {
      (pool as unknown as { query: unknown }).query = original;
    }
    return statements.find((s) => s.includes("LIKE"))!;
  }

  it("the list rows are read through the index on it, not by scanning the table", async () => {
    const read = await listRead(adapter);
    expect(read).toContain("`tenant_domain_list_idx_rows` = 1");
    const plan = await query<{ key: string | null; type: string }>(`EXPLAIN ${read}`, ["%,%"]);
    expect(plan).toHaveLength(1);
    expect(plan[0]!.type).not.toBe("ALL");
    expect(plan[0]!.key).toBe("tenant_domain_list_idx");
  });

  it("a second migration adds nothing", async () => {
    await adapter.createTables!();
    const columns = await query<{ c: number }>(
      "SELECT COUNT(*) AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'tenant'",
    );
    expect(Number(columns[0]!.c)).toBe(3);
  });

  it("an adapter that has not seen the column yet reads the rows without it, then learns it", async () => {
    const fresh = kyselyAdapter(pool)({ schema: resolved, logger: createLogger({ disabled: true }) });
    expect(await listRead(fresh)).not.toContain("_rows");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await listRead(fresh)).toContain("`tenant_domain_list_idx_rows` = 1");
  });
});
