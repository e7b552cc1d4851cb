import { BetterAuthError, type ResolvedField, type ResolvedModel, type ResolvedSchema } from "@latchkey/core";

/** The implicit primary key every model has. */
export const ID_FIELD: ResolvedField = { type: "string", required: true, fieldName: "id" };

/** Looks up a logical model; an unknown name is a programming error. */
export function modelOf(schema: ResolvedSchema, name: string): ResolvedModel {
  const model = schema[name];
  if (!model) throw new BetterAuthError(`Model "${name}" is not in the schema.`);
  return model;
}

/** Looks up a logical field (including `id`); an unknown name is a programming error. */
export function fieldOf(model: ResolvedModel, name: string): ResolvedField {
  const field = name === "id" ? ID_FIELD : model.fields[name];
  if (!field) throw new BetterAuthError(`Field "${name}" is not part of model "${model.model}".`);
  return field;
}

/** Logical names to read back: `id` first, then the selection or every field. */
export function outputFields(model: ResolvedModel, select?: string[]): string[] {
  return select?.length ? ["id", ...select.filter((f) => f !== "id")] : ["id", ...Object.keys(model.fields)];
}
