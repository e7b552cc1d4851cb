import {
  coreSchema,
  rateLimitSchema,
  resolveSchema,
  type ModelOverrides,
  type ResolvedSchema,
  type SchemaDefinition,
} from "@latchkey/core";

/** A model with one field of every type, so each encoding is exercised. */
export const itemSchema = {
  item: {
    fields: {
      name: { type: "string", required: true, sortable: true },
      slug: { type: "string", required: true, unique: true },
      count: { type: "number", required: true },
      big: { type: "number", required: false, bigint: true },
      active: { type: "boolean", required: true },
      note: { type: "string", required: false },
      seenAt: { type: "date", required: false },
      meta: { type: "json", required: false },
      tags: { type: "string[]", required: false },
      scores: { type: "number[]", required: false },
      kind: { type: ["small", "large"], required: false },
      ownerId: {
        type: "string",
        required: false,
        index: true,
        references: { model: "user", field: "id", onDelete: "cascade" },
      },
    },
  },
} satisfies SchemaDefinition;

/** Core tables, the rate-limit table and `item`, optionally with renames. */
export function baseSchema(
  overrides: Record<string, ModelOverrides> = {},
  extra: SchemaDefinition = {},
): ResolvedSchema {
  return resolveSchema(
    [
      { owner: "core", schema: coreSchema },
      { owner: "rate-limit", schema: rateLimitSchema },
      { owner: "conformance", schema: itemSchema },
      { owner: "conformance-extra", schema: extra },
    ],
    overrides,
  );
}

/** The schema of one extra model only (a table the base schema does not know). */
export function singleModel(schema: SchemaDefinition): ResolvedSchema {
  return resolveSchema([{ owner: "conformance", schema }]);
}
