import * as v from "valibot";
import type { DBField } from "./field.js";

/** A valibot schema for any value. */
export type FieldValueSchema = v.GenericSchema<unknown, unknown>;

/**
 * The valibot schema of a value a client may send for a field of this type (a plugin's
 * `additionalFields` in a request body): enums as picklists, dates as `Date` or ISO strings,
 * JSON as anything, strings otherwise.
 */
export function fieldValueSchema(field: DBField): FieldValueSchema {
  const { type } = field;
  if (Array.isArray(type)) return v.picklist(type as string[]) as FieldValueSchema;
  switch (type) {
    case "number":
      return v.number() as FieldValueSchema;
    case "boolean":
      return v.boolean() as FieldValueSchema;
    case "date":
      return v.union([v.date(), v.pipe(v.string(), v.isoTimestamp())]) as FieldValueSchema;
    case "string[]":
      return v.array(v.string()) as FieldValueSchema;
    case "number[]":
      return v.array(v.number()) as FieldValueSchema;
    case "json":
      return v.unknown() as FieldValueSchema;
    default:
      return v.string() as FieldValueSchema;
  }
}
