import { BetterAuthError, type Row, type Where } from "@latchkey/core";
import { describe, expect, it } from "vitest";
import type { Harness } from "../harness.js";
import { expectRefused, MARKER } from "../refusal.js";

/** Values no scalar column holds as is, each with the `item` field it is offered to. */
const NON_SCALARS: Array<[string, string, unknown]> = [
  ["an object", "name", { evil: MARKER }],
  ["a list", "name", [MARKER, "x"]],
  ["a function", "note", () => MARKER],
  ["a symbol", "note", Symbol(MARKER)],
  ["a bigint", "name", 10n],
  ["a date", "note", new Date()],
  ["bytes", "note", new TextEncoder().encode(MARKER)],
  ["an object", "count", { toString: () => "1" }],
  ["a list", "active", [true]],
  ["an object", "seenAt", { $gt: MARKER }],
  ["an invalid date", "seenAt", new Date(Number.NaN)],
  ["a non-date string", "seenAt", `not a date ${MARKER}`],
  ["a non-finite number", "count", Number.POSITIVE_INFINITY],
  ["an object", "kind", { small: MARKER }],
  ["an object", "id", { id: MARKER }],
  ["a list", "ownerId", [MARKER]],
];

/** Objects, lists, functions, symbols, bigints and misplaced dates in writes and in where clauses. */
export function hostileValueCases(h: Harness): void {
  const count = (): Promise<number> => h.adapter.count({ model: "item" });
  const byId = (id: unknown): Promise<Row | null> =>
    h.adapter.findOne({ model: "item", where: [{ field: "id", value: String(id) }] });

  describe("non-scalar values for scalar columns", () => {
    it.each(NON_SCALARS)("create refuses %s for item.%s and stores nothing", async (_, field, value) => {
      await expectRefused(
        h.adapter.create({ model: "item", data: h.item({ [field]: value }) }),
        "item",
        field,
      );
      expect(await count()).toBe(0);
    });

    it.each(NON_SCALARS)(
      "update and updateMany refuse %s for item.%s and change nothing",
      async (_, field, value) => {
        const [row] = await h.createItems([{ name: "kept" }]);
        const where: Where[] = [{ field: "id", value: String(row?.id) }];
        await expectRefused(
          h.adapter.update({ model: "item", where, update: { [field]: value } }),
          "item",
          field,
        );
        await expectRefused(
          h.adapter.updateMany({ model: "item", where, update: { [field]: value } }),
          "item",
          field,
        );
        expect(await byId(row?.id)).toEqual(row);
      },
    );

    it("incrementOne refuses a hostile `set` value and a delta that is not a finite number", async () => {
      const [row] = await h.createItems([{ count: 1 }]);
      const where: Where[] = [{ field: "id", value: String(row?.id) }];
      await expectRefused(
        h.adapter.incrementOne({
          model: "item",
          where,
          increment: { count: 1 },
          set: { note: { evil: MARKER } },
        }),
        "item",
        "note",
      );
      const delta = { evil: MARKER } as unknown as number;
      await expectRefused(
        h.adapter.incrementOne({ model: "item", where, increment: { count: delta } }),
        "item",
        "count",
      );
      await expectRefused(
        h.adapter.incrementOne({ model: "item", where, increment: { count: Number.NaN } }),
        "item",
        "count",
      );
      expect(await byId(row?.id)).toEqual(row);
    });

    it("a bigint is taken by number columns when it is a safe integer, refused beyond", async () => {
      const [row] = await h.createItems([{ big: 1_717_171_717_171n }]);
      expect((await byId(row?.id))?.big).toBe(1_717_171_717_171);
      await expectRefused(
        h.adapter.create({ model: "item", data: h.item({ big: 2n ** 64n }) }),
        "item",
        "big",
      );
    });

    it("findMany refuses a limit or offset that is not a non-negative integer", async () => {
      const limit = { evil: MARKER } as unknown as number;
      await expect(h.adapter.findMany({ model: "item", limit })).rejects.toBeInstanceOf(BetterAuthError);
      await expect(h.adapter.findMany({ model: "item", offset: -1 })).rejects.toBeInstanceOf(BetterAuthError);
    });
  });

  describe("non-scalar values in where clauses", () => {
    // Each would be expanded by mysql2 into `key = value` pairs if it reached the driver.
    const hostile: Array<[string, Where]> = [
      ["eq an object", { field: "id", value: { id: MARKER } as unknown as string }],
      ["eq a list", { field: "name", value: [MARKER] }],
      ["ne an object", { field: "name", operator: "ne", value: { a: MARKER } as unknown as string }],
      ["gt a date on a string field", { field: "slug", operator: "gt", value: new Date() }],
      [
        "in with a nested object",
        { field: "id", operator: "in", value: ["a", { id: MARKER }] as unknown as string[] },
      ],
      ["in with a nested list", { field: "count", operator: "in", value: [1, [2]] as unknown as number[] }],
      [
        "contains an object",
        { field: "name", operator: "contains", value: { $ne: MARKER } as unknown as string },
      ],
      ["starts_with a list", { field: "name", operator: "starts_with", value: [MARKER] }],
    ];

    it.each(hostile)("every operation refuses %s", async (_, clause) => {
      const [row] = await h.createItems([{ name: "present" }]);
      const where = [clause];
      const args = { model: "item", where };
      const field = clause.field;
      await expectRefused(h.adapter.findOne(args), "item", field);
      await expectRefused(h.adapter.findMany(args), "item", field);
      await expectRefused(h.adapter.count(args), "item", field);
      await expectRefused(h.adapter.update({ ...args, update: { name: "changed" } }), "item", field);
      await expectRefused(h.adapter.updateMany({ ...args, update: { name: "changed" } }), "item", field);
      await expectRefused(h.adapter.delete(args), "item", field);
      await expectRefused(h.adapter.deleteMany(args), "item", field);
      await expectRefused(h.adapter.consumeOne(args), "item", field);
      await expectRefused(h.adapter.incrementOne({ ...args, increment: { count: 1 } }), "item", field);
      // An OR clause is checked as well as an AND clause.
      await expectRefused(
        h.adapter.findMany({
          model: "item",
          where: [
            { field: "name", value: "x" },
            { ...clause, connector: "OR" },
          ],
        }),
        "item",
        field,
      );
      expect(await byId(row?.id)).toEqual(row);
    });

    it("JSON and list columns still compare with objects and lists", async () => {
      const [row] = await h.createItems([{ meta: { plan: "pro" }, tags: ["a", "b"] }]);
      const found = await h.adapter.findMany({
        model: "item",
        where: [{ field: "tags", operator: "contains", value: "b" }],
      });
      expect(found.map((r) => r.id)).toEqual([row?.id]);
    });
  });

  describe("JSON and list columns", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const hostileJSON: Array<[string, unknown]> = [
      ["a function inside", { a: 1, f: () => MARKER }],
      ["a symbol inside", [1, Symbol(MARKER)]],
      ["a bigint inside", { n: 1n }],
      ["a Map", new Map([[MARKER, 1]])],
      ["a circular structure", cyclic],
      ["a non-finite number inside", [1, Number.NaN]],
      ["a function", () => MARKER],
    ];

    it.each(hostileJSON)("refuses %s, which would not read back equal", async (_, meta) => {
      await expectRefused(h.adapter.create({ model: "item", data: h.item({ meta }) }), "item", "meta");
      expect(await count()).toBe(0);
    });

    it("keeps plain data with nulls, nesting and a value used twice", async () => {
      const shared = { k: "v" };
      const meta = {
        none: null,
        one: shared,
        two: shared,
        list: [[1], [2]],
        deep: { a: { b: [true, false] } },
      };
      const [row] = await h.createItems([{ meta }]);
      expect((await byId(row?.id))?.meta).toEqual(meta);
    });
  });
}
