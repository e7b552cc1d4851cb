import { describe, expect, it } from "vitest";
import { baseSchema, singleModel } from "../schema.js";
import type { Harness } from "../harness.js";

/** Dates, booleans, numbers, JSON, lists and enums survive a write and a read unchanged. */
export function valueCases(h: Harness): void {
  describe("value round-trips", () => {
    it("dates keep millisecond precision and come back as Date", async () => {
      const seenAt = new Date("2024-05-06T07:08:09.123Z");
      const data = h.item({ seenAt });
      await h.adapter.create({ model: "item", data });
      const row = await h.adapter.findOne({
        model: "item",
        where: [{ field: "id", value: String(data.id) }],
      });
      expect(row?.seenAt).toBeInstanceOf(Date);
      expect((row?.seenAt as Date).toISOString()).toBe("2024-05-06T07:08:09.123Z");
    });

    it("booleans come back as booleans", async () => {
      const [t, f] = await h.createItems([{ active: true }, { active: false }]);
      const rows = await h.adapter.findMany({
        model: "item",
        where: [{ field: "id", operator: "in", value: [String(t?.id), String(f?.id)] }],
      });
      expect(rows.map((r) => r.active).sort()).toEqual([false, true]);
      const user = await h.adapter.create({ model: "user", data: h.user({ emailVerified: true }) });
      expect(user.emailVerified).toBe(true);
    });

    it("numbers, including 64-bit epoch milliseconds, come back as numbers", async () => {
      const big = 1_717_171_717_171;
      const [row] = await h.createItems([{ count: -42, big }]);
      const found = await h.adapter.findOne({
        model: "item",
        where: [{ field: "id", value: String(row?.id) }],
      });
      expect(found?.count).toBe(-42);
      expect(found?.big).toBe(big);
      const limit = await h.adapter.create({
        model: "rateLimit",
        data: { id: h.id(), key: "1.2.3.4|/x", count: 1, lastRequest: big },
      });
      expect(limit.lastRequest).toBe(big);
    });

    it("JSON objects, string lists and number lists come back parsed", async () => {
      const meta = { plan: "pro", nested: { n: 1, list: [1, "two", null] }, flag: false };
      const [row] = await h.createItems([
        { meta, tags: ["a", "b,c", 'd"e'], scores: [1, 2.5, -3], kind: "large" },
      ]);
      const found = await h.adapter.findOne({
        model: "item",
        where: [{ field: "id", value: String(row?.id) }],
      });
      expect(found).toMatchObject({ meta, tags: ["a", "b,c", 'd"e'], scores: [1, 2.5, -3], kind: "large" });
    });

    it("empty lists and strings stay empty, not null", async () => {
      const [row] = await h.createItems([{ tags: [], note: "" }]);
      const found = await h.adapter.findOne({
        model: "item",
        where: [{ field: "id", value: String(row?.id) }],
      });
      expect(found?.tags).toEqual([]);
      expect(found?.note).toBe("");
    });

    it("update writes dates, booleans, JSON and lists the same way", async () => {
      const [row] = await h.createItems([{}]);
      const seenAt = new Date("2023-01-02T03:04:05.006Z");
      const updated = await h.adapter.update({
        model: "item",
        where: [{ field: "id", value: String(row?.id) }],
        update: { seenAt, active: false, meta: { a: 1 }, tags: ["x"] },
      });
      expect(updated).toMatchObject({ seenAt, active: false, meta: { a: 1 }, tags: ["x"] });
    });

    it("ISO-8601 strings for date fields are accepted on write and in where", async () => {
      const [row] = await h.createItems([{ seenAt: "2022-02-02T02:02:02.020Z" }]);
      expect(row?.seenAt).toEqual(new Date("2022-02-02T02:02:02.020Z"));
      const found = await h.adapter.findMany({
        model: "item",
        where: [{ field: "seenAt", operator: "gte", value: "2022-01-01T00:00:00.000Z" }],
      });
      expect(found).toHaveLength(1);
    });
  });

  describe("renamed tables and columns", () => {
    it("writes through modelName and fields overrides and reads back by logical name", async () => {
      const renamed = h.make(
        baseSchema({ item: { modelName: "lk_items", fields: { name: "item_name", count: "item_count" } } }),
      );
      await renamed.createTables?.();
      const data = h.item({ name: "renamed", count: 2 });
      await renamed.create({ model: "item", data });
      const row = await renamed.findOne({ model: "item", where: [{ field: "name", value: "renamed" }] });
      expect(row).toMatchObject({ id: data.id, name: "renamed", count: 2 });
      const sorted = await renamed.findMany({ model: "item", sortBy: { field: "count", direction: "asc" } });
      expect(sorted).toHaveLength(1);
      expect(
        await renamed.incrementOne({
          model: "item",
          where: [{ field: "name", value: "renamed" }],
          increment: { count: 1 },
        }),
      ).toMatchObject({ count: 3 });
      // The physical names are the overrides: read the same row through a schema that uses them.
      const raw = h.make(
        singleModel({
          raw: {
            modelName: "lk_items",
            fields: { item_name: { type: "string" }, item_count: { type: "number" } },
          },
        }),
      );
      expect(await raw.findOne({ model: "raw", where: [{ field: "id", value: String(data.id) }] })).toEqual({
        id: data.id,
        item_name: "renamed",
        item_count: 3,
      });
      expect(
        await h.adapter.findOne({ model: "item", where: [{ field: "id", value: String(data.id) }] }),
      ).toBeNull();
      await renamed.deleteMany({ model: "item", where: [] });
    });
  });
}
