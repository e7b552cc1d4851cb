import { describe, expect, it } from "vitest";
import type { Harness } from "../harness.js";

/** create, findOne, update, updateMany, delete, deleteMany, count, unique constraints. */
export function crudCases(h: Harness): void {
  describe("create and read", () => {
    it("returns the created row keyed by logical names, with null for unset fields", async () => {
      const data = h.item({ name: "first", count: 3 });
      const row = await h.adapter.create({ model: "item", data });
      expect(row).toMatchObject({ id: data.id, name: "first", slug: data.slug, count: 3, active: true });
      expect(row.note).toBeNull();
      expect(row.seenAt).toBeNull();
      const found = await h.adapter.findOne({
        model: "item",
        where: [{ field: "id", value: String(data.id) }],
      });
      expect(found).toEqual(row);
    });

    it("returns only the selected fields plus id", async () => {
      const data = h.item({ name: "picked" });
      const row = await h.adapter.create({ model: "item", data, select: ["name"] });
      expect(row).toEqual({ id: data.id, name: "picked" });
      const found = await h.adapter.findOne({
        model: "item",
        where: [{ field: "slug", value: String(data.slug) }],
        select: ["slug", "count"],
      });
      expect(found).toEqual({ id: data.id, slug: data.slug, count: 0 });
    });

    it("drops keys the schema does not know", async () => {
      const row = await h.adapter.create({ model: "item", data: { ...h.item(), notAColumn: "x" } });
      expect(row).not.toHaveProperty("notAColumn");
    });

    it("answers null when nothing matches", async () => {
      expect(
        await h.adapter.findOne({ model: "item", where: [{ field: "id", value: "missing" }] }),
      ).toBeNull();
    });

    it("rejects an unknown model or field", async () => {
      await expect(h.adapter.findOne({ model: "nope", where: [] })).rejects.toThrow();
      await expect(
        h.adapter.findOne({ model: "item", where: [{ field: "nope", value: 1 }] }),
      ).rejects.toThrow();
    });
  });

  describe("unique constraints", () => {
    it("rejects a second row with the same unique value", async () => {
      await h.adapter.create({ model: "item", data: h.item({ slug: "taken" }) });
      await expect(h.adapter.create({ model: "item", data: h.item({ slug: "taken" }) })).rejects.toThrow();
      expect(await h.adapter.count({ model: "item", where: [{ field: "slug", value: "taken" }] })).toBe(1);
    });

    it("rejects a duplicate primary key and a duplicate user email", async () => {
      const data = h.item();
      await h.adapter.create({ model: "item", data });
      await expect(h.adapter.create({ model: "item", data: { ...h.item(), id: data.id } })).rejects.toThrow();
      await h.adapter.create({ model: "user", data: h.user({ email: "dup@example.com" }) });
      await expect(
        h.adapter.create({ model: "user", data: h.user({ email: "dup@example.com" }) }),
      ).rejects.toThrow();
    });

    it("rejects an update onto a taken unique value", async () => {
      await h.createItems([{ slug: "one" }, { slug: "two" }]);
      await expect(
        h.adapter.update({
          model: "item",
          where: [{ field: "slug", value: "two" }],
          update: { slug: "one" },
        }),
      ).rejects.toThrow();
    });
  });

  describe("update", () => {
    it("updates one row and returns it as stored", async () => {
      const [a] = await h.createItems([{ name: "a", slug: "upd-a" }]);
      const row = await h.adapter.update({
        model: "item",
        where: [{ field: "id", value: String(a?.id) }],
        update: { name: "A", count: 9 },
      });
      expect(row).toMatchObject({ id: a?.id, name: "A", count: 9, slug: "upd-a" });
    });

    it("returns the row when the update changes the field it was selected by", async () => {
      await h.createItems([{ slug: "old-slug" }]);
      const row = await h.adapter.update({
        model: "item",
        where: [{ field: "slug", value: "old-slug" }],
        update: { slug: "new-slug" },
      });
      expect(row?.slug).toBe("new-slug");
    });

    it("changes at most one row when several match", async () => {
      await h.createItems([{ name: "same" }, { name: "same" }, { name: "same" }]);
      await h.adapter.update({
        model: "item",
        where: [{ field: "name", value: "same" }],
        update: { count: 7 },
      });
      expect(await h.adapter.count({ model: "item", where: [{ field: "count", value: 7 }] })).toBe(1);
    });

    it("answers null for no match or an empty where", async () => {
      await h.createItems([{}]);
      expect(
        await h.adapter.update({
          model: "item",
          where: [{ field: "id", value: "missing" }],
          update: { count: 1 },
        }),
      ).toBeNull();
      expect(await h.adapter.update({ model: "item", where: [], update: { count: 1 } })).toBeNull();
      expect(await h.adapter.count({ model: "item", where: [{ field: "count", value: 1 }] })).toBe(0);
    });

    it("updateMany changes every match and returns the count", async () => {
      await h.createItems([{ name: "m" }, { name: "m" }, { name: "other" }]);
      expect(
        await h.adapter.updateMany({
          model: "item",
          where: [{ field: "name", value: "m" }],
          update: { count: 5 },
        }),
      ).toBe(2);
      expect(await h.adapter.count({ model: "item", where: [{ field: "count", value: 5 }] })).toBe(2);
      expect(
        await h.adapter.updateMany({
          model: "item",
          where: [{ field: "name", value: "none" }],
          update: { count: 6 },
        }),
      ).toBe(0);
    });
  });

  describe("delete and count", () => {
    it("delete removes every match; an empty where removes nothing", async () => {
      await h.createItems([{ name: "d" }, { name: "d" }, { name: "keep" }]);
      await h.adapter.delete({ model: "item", where: [] });
      expect(await h.adapter.count({ model: "item" })).toBe(3);
      await h.adapter.delete({ model: "item", where: [{ field: "name", value: "d" }] });
      expect(await h.adapter.count({ model: "item" })).toBe(1);
    });

    it("deleteMany returns the number of rows deleted", async () => {
      await h.createItems([{ name: "x" }, { name: "x" }, { name: "y" }]);
      expect(await h.adapter.deleteMany({ model: "item", where: [{ field: "name", value: "x" }] })).toBe(2);
      expect(await h.adapter.deleteMany({ model: "item", where: [{ field: "name", value: "x" }] })).toBe(0);
      expect(await h.adapter.deleteMany({ model: "item", where: [] })).toBe(1);
    });

    it("count counts all rows or the matching ones", async () => {
      await h.createItems([{ count: 1 }, { count: 2 }, { count: 3 }]);
      expect(await h.adapter.count({ model: "item" })).toBe(3);
      expect(
        await h.adapter.count({ model: "item", where: [{ field: "count", operator: "gte", value: 2 }] }),
      ).toBe(2);
    });
  });
}
