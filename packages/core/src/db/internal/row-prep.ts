import type { Row } from "../adapter.js";
import type { ResolvedSchema } from "../field.js";
import { generateId } from "../../crypto/random.js";

/**
 * Id generation for rows that live only in secondary storage: there is no database to assign
 * one, so `generateId: false` falls back to a generated id, as the reference does for sessions.
 */
export const storageRowId =
  (newId: (args: { model: string }) => string | false) =>
  (args: { model: string }): string =>
    newId(args) || generateId(32);

/**
 * A new row as the database path would write it: the id from `newId` (none when it answers
 * `false`, leaving it to the database), field defaults, then `data`.
 */
export function prepareStoredRow(
  schema: ResolvedSchema,
  model: string,
  newId: (args: { model: string }) => string | false,
  data: Row,
): Row {
  const out: Row = {};
  const id = newId({ model });
  if (id !== false) out.id = id;
  for (const [field, attr] of Object.entries(schema[model]?.fields ?? {})) {
    if (attr.defaultValue === undefined) continue;
    out[field] =
      typeof attr.defaultValue === "function" ? (attr.defaultValue as () => unknown)() : attr.defaultValue;
  }
  for (const [key, value] of Object.entries(data)) if (value !== undefined) out[key] = value;
  return out;
}

/** `data` plus the `onUpdate` value of every field it does not set (e.g. `updatedAt`). */
export function withOnUpdate(schema: ResolvedSchema, model: string, data: Row): Row {
  const out: Row = {};
  for (const [field, attr] of Object.entries(schema[model]?.fields ?? {})) {
    if (attr.onUpdate && data[field] === undefined) out[field] = attr.onUpdate();
  }
  return { ...out, ...data };
}
