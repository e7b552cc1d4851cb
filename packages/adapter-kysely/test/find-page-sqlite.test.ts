import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, findPage, resolveSchema, type Adapter, type SchemaDefinition } from "@latchkey/core";
import { kyselyAdapter } from "../src/index.js";
import { freshSqlite } from "./support/databases.js";

// The SQLite `findPage`: the page and its joined rows in one statement, and a total that does
// not walk again the rows the page skipped. Its answers are checked against findMany and count
// by the conformance suite (adapter-tests' find-page cases); here, what it sends and how
// SQLite runs it, on 1,000 members of one team among 5,000 seats (every fifth).

const schema: SchemaDefinition = {
  person: { fields: { name: { type: "string", required: true } } },
  seat: {
    fields: {
      teamId: { type: "string", required: true, index: true },
      personId: { type: "string", required: true, references: { model: "person", field: "id", onDelete: "cascade" } },
      joinedAt: { type: "date", required: true },
    },
  },
};
const resolved = resolveSchema([{ owner: "test", schema }]);

describe("findPage on SQLite", () => {
  let db: ReturnType<typeof freshSqlite>;
  let adapter: Adapter;
  const sent: string[] = [];
  beforeAll(async () => {
    db = freshSqlite();
    // Every statement the adapter runs, in order (it prepares each text once and keeps it).
    const prepare = db.database.prepare.bind(db.database);
    db.database.prepare = ((text: string) => {
      const statement = prepare(text);
      for (const method of ["all", "run", "get"] as const) {
        const call = statement[method].bind(statement) as (...a: unknown[]) => unknown;
        (statement as unknown as Record<string, unknown>)[method] = (...a: unknown[]) => {
          if (!text.startsWith("PRAGMA")) sent.push(text);
          return call(...a);
        };
      }
      return statement;
    }) as typeof db.database.prepare;
    adapter = kyselyAdapter(db.database)({ schema: resolved, logger: createLogger({ disabled: true }) });
    await adapter.createTables!();
    const insertPerson = db.database.prepare(`INSERT INTO person (id, name) VALUES (?, ?)`);
    const insertSeat = db.database.prepare(`INSERT INTO seat (id, teamId, personId, joinedAt) VALUES (?, ?, ?, ?)`);
    db.database.transaction(() => {
      for (let i = 0; i < 5000; i++) {
        insertPerson.run(`p${i}`, `Person ${i}`);
        insertSeat.run(`s${i}`, i % 5 === 0 ? "big" : `small${i % 7}`, `p${i}`, new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString());
      }
    })();
    db.database.exec("ANALYZE");
  });
  afterAll(async () => {
    await adapter.close?.();
    db.remove();
  });

  const page = async (limit: number, offset: number) => {
    sent.length = 0;
    const result = await findPage<{ id: string; person: { id: string; name: string } | null }>(adapter, {
      model: "seat",
      where: [{ field: "teamId", value: "big" }],
      limit,
      offset,
      join: { person: { field: "personId", select: ["name"] } },
    });
    return { ...result, statements: [...sent] };
  };

  it("a full page in the middle: one read of the page with its people, one count of the rows after it", async () => {
    const { rows, total, statements } = await page(100, 500);
    expect(total).toBe(1000);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 100 }, (_, i) => `s${(500 + i) * 5}`));
    expect(rows[0]!.person).toEqual({ id: "p2500", name: "Person 2500" });
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/LEFT JOIN "person"/);
    expect(statements[1]).toMatch(/^SELECT COUNT\(\*\).* AND rowid > \?$/);
    const plan = (text: string, ...values: unknown[]) =>
      (db.database.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...values) as { detail: string }[]).map((p) => p.detail);
    // The team's seats from their index, in rowid order (no sorter over them); one person
    // lookup per row; the count from the index too, from the page's last rowid on.
    expect(plan(statements[0]!, "big", 100, 500)).toEqual([
      "CO-ROUTINE p",
      "SEARCH seat USING INDEX seat_teamId_idx (teamId=?)",
      "SCAN p",
      "SEARCH __latchkey_j0 USING INDEX sqlite_autoindex_person_1 (id=?) LEFT-JOIN",
    ]);
    expect(plan(statements[1]!, "big", 0)).toEqual(["SEARCH seat USING COVERING INDEX seat_teamId_idx (teamId=? AND rowid>?)"]);
  });

  it("a short last page is its own total, and an empty one past the end is counted", async () => {
    const last = await page(100, 950);
    expect(last.rows).toHaveLength(50);
    expect(last.total).toBe(1000);
    expect(last.statements).toHaveLength(1);
    const beyond = await page(100, 1000);
    expect(beyond).toMatchObject({ rows: [], total: 1000 });
    expect(beyond.statements[1]).toMatch(/^SELECT COUNT\(\*\)[^?]*= \?\)$/);
  });

  it("the count after the page is exact while rows come and go around it", async () => {
    const before = await page(100, 0);
    expect(before.total).toBe(1000);
    // Rows before, inside and after the page, and another team's.
    db.database.prepare(`DELETE FROM seat WHERE id IN ('s15', 's2500', 's4000')`).run();
    db.database.prepare(`INSERT INTO seat (id, teamId, personId, joinedAt) VALUES ('late', 'big', 'p1', ?), ('other', 'small1', 'p2', ?)`).run(new Date().toISOString(), new Date().toISOString());
    const after = await page(100, 0);
    expect(after.total).toBe(998);
    expect(after.total).toBe(await adapter.count({ model: "seat", where: [{ field: "teamId", value: "big" }] }));
    expect((await page(100, 900)).total).toBe(998);
    expect((await page(100, 900)).rows.at(-1)!.id).toBe("late");
  });
});
