import { fieldValueSchema, type DBField, type FieldValueSchema } from "@latchkey/core";
import * as v from "valibot";

type Entry = FieldValueSchema;

/**
 * Body entries for a table's `additionalFields` that clients may set (`input` not false):
 * required ones without a default must be given (unless `partial`), the rest are optional.
 */
export function additionalFieldEntries(fields: Record<string, DBField> | undefined, partial = false): Record<string, Entry> {
  const entries: Record<string, Entry> = {};
  for (const [name, field] of Object.entries(fields ?? {})) {
    if (field.input === false) continue;
    const schema = fieldValueSchema(field);
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
