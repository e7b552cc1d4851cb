import type { DBField } from "@latchkey/core";
import * as v from "valibot";

type Entry = v.GenericSchema<unknown, unknown>;

/** The valibot schema of one column a client may set. */
function fieldSchema(field: DBField): Entry {
  const { type } = field;
  if (Array.isArray(type)) return v.picklist(type as string[]) as Entry;
  switch (type) {
    case "number":
      return v.number() as Entry;
    case "boolean":
      return v.boolean() as Entry;
    case "date":
      return v.union([v.date(), v.pipe(v.string(), v.isoTimestamp())]) as Entry;
    case "string[]":
      return v.array(v.string()) as Entry;
    case "number[]":
      return v.array(v.number()) as Entry;
    case "json":
      return v.unknown() as Entry;
    default:
      return v.string() as Entry;
  }
}

/**
 * Body entries for a table's `additionalFields` that clients may set (`input` not false):
 * required ones without a default must be given (unless `partial`), the rest are optional.
 */
export function additionalFieldEntries(fields: Record<string, DBField> | undefined, partial = false): Record<string, Entry> {
  const entries: Record<string, Entry> = {};
  for (const [name, field] of Object.entries(fields ?? {})) {
    if (field.input === false) continue;
    const schema = fieldSchema(field);
    const needed = !partial && field.required !== false && field.defaultValue === undefined;
    entries[name] = needed ? schema : (v.nullish(schema) as Entry);
  }
  return entries;
}

/** The additional-field values present in `body`. */
export function pickAdditional(body: Record<string, unknown>, fields: Record<string, DBField> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields ?? {})) {
    if (field.input === false || !(name in body) || body[name] === undefined) continue;
    out[name] = body[name];
  }
  return out;
}
