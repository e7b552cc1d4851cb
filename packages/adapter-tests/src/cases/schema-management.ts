import { describe, expect, it } from "vitest";
import { baseSchema, singleModel } from "../schema.js";
import type { Harness } from "../harness.js";

/** createTables and findSchemaProblems; skipped for adapters without them (e.g. memory). */
export function schemaManagementCases(h: Harness, enabled: boolean): void {
  describe.skipIf(!enabled)("schema management", () => {
    it("createTables is idempotent and leaves nothing missing", async () => {
      await h.adapter.createTables?.();
      await h.adapter.createTables?.();
      expect(await h.adapter.findSchemaProblems?.()).toEqual([]);
    });

    it("reports a table and a column the schema gained, then createTables adds them and keeps rows", async () => {
      const [kept] = await h.createItems([{ name: "survivor" }]);
      const grown = h.make(
        baseSchema(
          {
            item: {
              additionalFields: {
                extra: { type: "string", required: false, index: true },
                flag: { type: "boolean", required: true, defaultValue: false },
              },
            },
          },
          {
            gadget: {
              fields: {
                label: { type: "string", required: true, unique: true },
                itemId: { type: "string", required: false, references: { model: "item", field: "id" } },
              },
            },
          },
        ),
      );
      const problems = await grown.findSchemaProblems?.();
      expect(problems).toEqual(
        expect.arrayContaining([
          { table: "item", column: "extra" },
          { table: "item", column: "flag" },
          { table: "gadget" },
        ]),
      );
      expect(problems).toHaveLength(3);
      await grown.createTables?.();
      expect(await grown.findSchemaProblems?.()).toEqual([]);
      const row = await grown.findOne({ model: "item", where: [{ field: "id", value: String(kept?.id) }] });
      expect(row).toMatchObject({ name: "survivor", extra: null, flag: false });
      await grown.update({
        model: "item",
        where: [{ field: "id", value: String(kept?.id) }],
        update: { extra: "x" },
      });
      await grown.create({ model: "gadget", data: { id: h.id("g"), label: "g1", itemId: kept?.id } });
      await expect(grown.create({ model: "gadget", data: { id: h.id("g"), label: "g1" } })).rejects.toThrow();
      await grown.deleteMany({ model: "gadget", where: [] });
    });

    it("refuses to add a required column without a default to a populated table", async () => {
      await h.createItems([{}]);
      const strict = h.make(
        baseSchema({ item: { additionalFields: { mandatory: { type: "string", required: true } } } }),
      );
      await expect(strict.createTables?.()).rejects.toThrow(/populated/);
    });

    it("reports a dropped column and a dropped table", async (ctx) => {
      const { dropColumn, dropTable } = h.setup;
      if (!dropColumn || !dropTable) ctx.skip();
      const probe = h.make(
        singleModel({
          probe: {
            modelName: "lk_probe",
            fields: { a: { type: "string", required: false }, b: { type: "number", required: false } },
          },
        }),
      );
      await probe.createTables?.();
      expect(await probe.findSchemaProblems?.()).toEqual([]);
      await dropColumn?.("lk_probe", "b");
      expect(await probe.findSchemaProblems?.()).toEqual([{ table: "lk_probe", column: "b" }]);
      await dropTable?.("lk_probe");
      expect(await probe.findSchemaProblems?.()).toEqual([{ table: "lk_probe" }]);
      await probe.createTables?.();
      expect(await probe.findSchemaProblems?.()).toEqual([]);
    });

    it("skips models with disableMigration", async () => {
      const managedElsewhere = h.make(
        singleModel({ external: { disableMigration: true, fields: { x: { type: "string" } } } }),
      );
      expect(await managedElsewhere.findSchemaProblems?.()).toEqual([]);
      await managedElsewhere.createTables?.();
      expect(
        await h.make(singleModel({ external: { fields: { x: { type: "string" } } } })).findSchemaProblems?.(),
      ).toEqual([{ table: "external" }]);
    });
  });
}
