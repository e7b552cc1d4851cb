import {
  resolveSchema,
  type OnDeleteAction,
  type ResolvedSchema,
  type SchemaDefinition,
} from "@latchkey/core";
import { describe, expect, it } from "vitest";
import type { Harness } from "../harness.js";
import { baseSchema, singleModel } from "../schema.js";

const HOSTILE = "cascade; drop table user; --";

/** A child of `user` whose reference says `onDelete`, on its own table. */
const child = (table: string, onDelete: string): SchemaDefinition => ({
  [table]: {
    fields: {
      userId: {
        type: "string",
        required: false,
        references: { model: "user", field: "id", onDelete: onDelete as OnDeleteAction },
      },
    },
  },
});

/** `references.onDelete` is written into DDL, so only the reference's actions get there. */
export function onDeleteCases(h: Harness, enabled: boolean): void {
  describe("references.onDelete", () => {
    it("resolveSchema refuses an action outside the reference's list, without echoing it", () => {
      expect(() => resolveSchema([{ owner: "t", schema: child("bad", HOSTILE) }])).toThrow(TypeError);
      expect(() => resolveSchema([{ owner: "t", schema: child("bad", "CASCADE") }])).toThrow(TypeError);
      try {
        resolveSchema([{ owner: "t", schema: child("bad", HOSTILE) }]);
      } catch (error) {
        expect((error as Error).message).toContain('"bad.userId"');
        expect((error as Error).message).not.toContain("drop table");
      }
    });

    it.skipIf(!enabled)(
      "createTables refuses a hand-built schema with another action and creates nothing",
      async () => {
        const schema: ResolvedSchema = singleModel(child("lk_hostile_fk", "cascade"));
        const reference = schema.lk_hostile_fk?.fields.userId?.references;
        if (reference) (reference as { onDelete: string }).onDelete = HOSTILE;
        const adapter = h.make(schema);
        await expect(adapter.createTables?.()).rejects.toThrow(TypeError);
        expect(await adapter.findSchemaProblems?.()).toEqual([{ table: "lk_hostile_fk" }]);
        expect(await h.adapter.findSchemaProblems?.()).toEqual([]);
      },
    );

    it.skipIf(!enabled)("createTables writes each accepted action", async () => {
      const accepted = h.make(
        baseSchema(
          {},
          {
            ...child("lk_fk_null", "set null"),
            ...child("lk_fk_restrict", "restrict"),
            ...child("lk_fk_none", "no action"),
          },
        ),
      );
      await accepted.createTables?.();
      expect(await accepted.findSchemaProblems?.()).toEqual([]);
    });
  });
}
