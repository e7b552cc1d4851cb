import { beforeEach, describe, expect, it } from "vitest";
import type { Row, Where } from "@latchkey/core";
import type { Harness } from "../harness.js";

const day = (n: number): Date => new Date(Date.UTC(2024, 0, n, 12, 0, 0, 250));

/** Every operator, NULL handling, LIKE metacharacters, AND/OR grouping, sortBy/limit/offset. */
export function whereCases(h: Harness): void {
  describe("where operators", () => {
    beforeEach(async () => {
      await h.createItems([
        { name: "alpha", count: 1, active: true, seenAt: day(1), note: "first" },
        { name: "beta", count: 2, active: false, seenAt: day(2), note: null },
        { name: "gamma", count: 3, active: true, seenAt: day(3), note: "50%_off" },
        { name: "delta", count: 4, active: false, seenAt: null, note: "50xyoff" },
      ]);
    });

    const names = async (where: Where[]): Promise<string[]> => {
      const rows = await h.adapter.findMany<Row>({ model: "item", where });
      return rows.map((r) => String(r.name)).sort();
    };

    it("eq and ne, on strings, numbers and booleans", async () => {
      expect(await names([{ field: "name", value: "beta" }])).toEqual(["beta"]);
      expect(await names([{ field: "count", operator: "eq", value: 3 }])).toEqual(["gamma"]);
      expect(await names([{ field: "active", value: true }])).toEqual(["alpha", "gamma"]);
      expect(await names([{ field: "active", value: false }])).toEqual(["beta", "delta"]);
      expect(await names([{ field: "name", operator: "ne", value: "beta" }])).toEqual([
        "alpha",
        "delta",
        "gamma",
      ]);
    });

    it("lt, lte, gt, gte on numbers and dates", async () => {
      expect(await names([{ field: "count", operator: "lt", value: 2 }])).toEqual(["alpha"]);
      expect(await names([{ field: "count", operator: "lte", value: 2 }])).toEqual(["alpha", "beta"]);
      expect(await names([{ field: "count", operator: "gt", value: 3 }])).toEqual(["delta"]);
      expect(await names([{ field: "count", operator: "gte", value: 3 }])).toEqual(["delta", "gamma"]);
      expect(await names([{ field: "seenAt", operator: "gt", value: day(1) }])).toEqual(["beta", "gamma"]);
      expect(await names([{ field: "seenAt", operator: "lte", value: day(2) }])).toEqual(["alpha", "beta"]);
      expect(await names([{ field: "seenAt", value: day(3) }])).toEqual(["gamma"]);
    });

    it("in and not_in, including empty lists", async () => {
      expect(await names([{ field: "name", operator: "in", value: ["alpha", "delta", "zeta"] }])).toEqual([
        "alpha",
        "delta",
      ]);
      expect(await names([{ field: "count", operator: "in", value: [2, 3] }])).toEqual(["beta", "gamma"]);
      expect(await names([{ field: "name", operator: "not_in", value: ["alpha", "delta"] }])).toEqual([
        "beta",
        "gamma",
      ]);
      expect(await names([{ field: "name", operator: "in", value: [] }])).toEqual([]);
      expect(await names([{ field: "name", operator: "not_in", value: [] }])).toHaveLength(4);
    });

    it("contains, starts_with, ends_with", async () => {
      expect(await names([{ field: "name", operator: "contains", value: "lt" }])).toEqual(["delta"]);
      expect(await names([{ field: "name", operator: "starts_with", value: "gam" }])).toEqual(["gamma"]);
      expect(await names([{ field: "name", operator: "ends_with", value: "ta" }])).toEqual(["beta", "delta"]);
    });

    it("treats % and _ in patterns literally", async () => {
      expect(await names([{ field: "note", operator: "contains", value: "%_" }])).toEqual(["gamma"]);
      expect(await names([{ field: "note", operator: "starts_with", value: "50_" }])).toEqual([]);
    });

    it("eq null and ne null; NULL never satisfies a comparison", async () => {
      expect(await names([{ field: "note", value: null }])).toEqual(["beta"]);
      expect(await names([{ field: "note", operator: "ne", value: null }])).toEqual([
        "alpha",
        "delta",
        "gamma",
      ]);
      expect(await names([{ field: "seenAt", operator: "lt", value: day(9) }])).toEqual([
        "alpha",
        "beta",
        "gamma",
      ]);
    });

    it("AND clauses all hold; at least one OR clause holds", async () => {
      const where: Where[] = [
        { field: "count", operator: "gte", value: 2 },
        { field: "name", value: "alpha", connector: "OR" },
        { field: "name", value: "gamma", connector: "OR" },
      ];
      expect(await names(where)).toEqual(["gamma"]);
      expect(
        await names([
          { field: "name", value: "alpha", connector: "OR" },
          { field: "name", value: "beta", connector: "OR" },
        ]),
      ).toEqual(["alpha", "beta"]);
      expect(
        await names([
          { field: "active", value: true },
          { field: "count", operator: "gt", value: 1, connector: "AND" },
        ]),
      ).toEqual(["gamma"]);
    });
  });

  describe("findMany paging and ordering", () => {
    beforeEach(async () => {
      await h.createItems(["c", "a", "d", "b", "e"].map((name, i) => ({ name, count: i })));
    });

    it("sorts ascending and descending", async () => {
      const asc = await h.adapter.findMany<Row>({
        model: "item",
        sortBy: { field: "name", direction: "asc" },
      });
      expect(asc.map((r) => r.name)).toEqual(["a", "b", "c", "d", "e"]);
      const desc = await h.adapter.findMany<Row>({
        model: "item",
        sortBy: { field: "count", direction: "desc" },
      });
      expect(desc.map((r) => r.count)).toEqual([4, 3, 2, 1, 0]);
    });

    it("applies limit and offset after sorting", async () => {
      const page = await h.adapter.findMany<Row>({
        model: "item",
        sortBy: { field: "name", direction: "asc" },
        limit: 2,
        offset: 1,
      });
      expect(page.map((r) => r.name)).toEqual(["b", "c"]);
      const rest = await h.adapter.findMany<Row>({
        model: "item",
        sortBy: { field: "name", direction: "asc" },
        offset: 3,
      });
      expect(rest.map((r) => r.name)).toEqual(["d", "e"]);
      expect(await h.adapter.findMany({ model: "item", limit: 0 })).toEqual([]);
    });

    it("selects fields and filters together", async () => {
      const rows = await h.adapter.findMany({
        model: "item",
        where: [{ field: "count", operator: "gte", value: 3 }],
        sortBy: { field: "count", direction: "asc" },
        select: ["name"],
      });
      expect(rows).toEqual([
        { id: expect.any(String), name: "b" },
        { id: expect.any(String), name: "e" },
      ]);
    });
  });
}
