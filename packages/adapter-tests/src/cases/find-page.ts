import { describe, expect, it } from "vitest";
import { findPage, type Adapter, type FindPageArgs, type Row, type Where } from "@latchkey/core";
import type { Harness } from "../harness.js";

type Item = Row & { id: string; name: string; ownerId: string | null };

/**
 * What `findPage` must answer, read the plain way: `findMany`, `count`, and each row's owner
 * by `findOne` (with the join's `select`).
 */
async function readApart(adapter: Adapter, args: FindPageArgs): Promise<{ rows: Row[]; total: number }> {
  const { join, ...many } = args;
  const rows = await adapter.findMany<Item>(many);
  const total = await adapter.count({ model: "item", ...(args.where ? { where: args.where } : {}) });
  const owner = join?.user;
  if (!owner) return { rows, total };
  const withOwner = [];
  for (const row of rows) {
    const user = row.ownerId
      ? await adapter.findOne({ model: "user", where: [{ field: "id", value: row.ownerId }], ...(owner.select ? { select: owner.select } : {}) })
      : null;
    withOwner.push({ ...row, user });
  }
  return { rows: withOwner, total };
}

const FILTERS: Array<[string, Where[] | undefined]> = [
  ["no where", undefined],
  ["an AND clause", [{ field: "active", value: true }]],
  ["OR clauses", [{ field: "count", value: 3, operator: "lt", connector: "OR" }, { field: "count", value: 30, operator: "gte", connector: "OR" }]],
  // The indexed reference column, on the rows that have no owner (IS NULL).
  ["an indexed column, null", [{ field: "ownerId", value: null }]],
  ["nothing matches", [{ field: "name", value: "no such item" }]],
];
const PAGES: Array<{ limit?: number; offset?: number }> = [
  {},
  { limit: 5 },
  { limit: 5, offset: 0 },
  { limit: 5, offset: 3 },
  { limit: 1, offset: 36 },
  { limit: 10, offset: 30 },
  { limit: 37 },
  { limit: 50, offset: 2 },
  { limit: 5, offset: 37 },
  { limit: 5, offset: 100 },
  { limit: 0, offset: 4 },
  { offset: 35 },
];
const JOINS: Array<[string, FindPageArgs["join"]]> = [
  ["no join", undefined],
  ["owner's name and email", { user: { field: "ownerId", select: ["name", "email"] } }],
  ["whole owner", { user: { field: "ownerId" } }],
];

/**
 * Core's `findPage` (the adapter's own when it has one, else findMany + count + one `in` read
 * per join): the rows of `findMany` with the joined rows `findOne` would read (null where the
 * reference field is empty), and the total `count` gives, for every paging, filter and join.
 * Sorted reads must match row for row; unsorted ones, in the adapter's own order, must page
 * through every match exactly once.
 */
export function findPageCases(h: Harness): void {
  describe("findPage", () => {
    const seed = async (): Promise<Map<string, string>> => {
      const owners = [];
      for (let i = 0; i < 3; i++) owners.push(await h.adapter.create({ model: "user", data: h.user({ name: `Owner ${i}`, image: i ? null : "https://img" }) }));
      const ids = new Map<string, string>();
      for (let i = 0; i < 37; i++) {
        const owner = i % 4 === 3 ? null : owners[i % 3]!;
        const [item] = await h.createItems([{ name: `item-${String((i * 7) % 37).padStart(2, "0")}`, count: i, active: i % 2 === 0, ownerId: owner ? owner.id : null }]);
        ids.set(String(item!.id), String(item!.name));
      }
      return ids;
    };

    it("answers what findMany, count and findOne answer, sorted", async () => {
      await seed();
      for (const [, where] of FILTERS)
        for (const page of PAGES)
          for (const [, join] of JOINS)
            for (const direction of ["asc", "desc"] as const) {
              const args: FindPageArgs = { model: "item", ...(where ? { where } : {}), ...page, sortBy: { field: "name", direction }, ...(join ? { join } : {}) };
              expect(await findPage(h.adapter, args), JSON.stringify(args)).toEqual(await readApart(h.adapter, args));
            }
    });

    it("pages through every match once, unsorted", async () => {
      const ids = await seed();
      for (const [label, where] of FILTERS)
        for (const [, join] of JOINS)
          for (const size of [1, 4, 37]) {
            const all = await readApart(h.adapter, { model: "item", ...(where ? { where } : {}), ...(join ? { join } : {}) });
            const seen: Row[] = [];
            for (let offset = 0; offset < all.total + size; offset += size) {
              const args: FindPageArgs = { model: "item", ...(where ? { where } : {}), limit: size, offset, ...(join ? { join } : {}) };
              const { rows, total } = await findPage(h.adapter, args);
              expect(total, `${label} ${JSON.stringify(args)}`).toBe(all.total);
              expect(rows.length).toBe(Math.max(0, Math.min(size, all.total - offset)));
              seen.push(...rows);
            }
            const byId = (rows: Row[]) => [...rows].sort((a, b) => String(a.id).localeCompare(String(b.id)));
            expect(byId(seen), label).toEqual(byId(all.rows));
            for (const row of seen) expect(ids.get(String(row.id))).toBe(row.name);
          }
    });

    it("answers null where the reference field is empty, and decodes joined fields as findOne does", async () => {
      const [owner] = [await h.adapter.create({ model: "user", data: h.user({ emailVerified: true }) })];
      await h.createItems([{ name: "a", ownerId: owner!.id }, { name: "b" }]);
      const { rows } = await findPage<Item & { user: Row | null }>(h.adapter, {
        model: "item",
        sortBy: { field: "name", direction: "asc" },
        limit: 10,
        join: { user: { field: "ownerId" } },
      });
      expect(rows.map((row) => row.user?.id ?? null)).toEqual([owner!.id, null]);
      expect(rows[0]!.user).toEqual(await h.adapter.findOne({ model: "user", where: [{ field: "id", value: String(owner!.id) }] }));
      expect(rows[0]!.user!.emailVerified).toBe(true);
      expect(rows[0]!.user!.createdAt).toBeInstanceOf(Date);
    });
  });
}
