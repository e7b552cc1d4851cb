import { assertStorable, dateFromText, type ResolvedField, type ResolvedModel, type Row } from "@latchkey/core";
import type { DatabaseType } from "./database-type.js";
import type { ColumnFit } from "./executor.js";
import { fieldOf, ID_FIELD, outputFields } from "./model.js";

/**
 * Value encodings, as the reference's adapter factory writes them (core.md §2.4):
 * SQLite stores dates as `toISOString()` text and booleans as 1/0, MySQL booleans as 1/0,
 * PostgreSQL both natively; JSON values and `string[]`/`number[]` lists are JSON text on
 * every dialect (PostgreSQL's `jsonb` column parses that text).
 */
export function encodeValue(field: ResolvedField, raw: unknown, type: DatabaseType): unknown {
  const value = toFieldType(field, raw);
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return type === "sqlite" ? value.toISOString() : value;
  if (typeof value === "boolean") return type === "postgres" ? value : value ? 1 : 0;
  if (field.type === "json" || field.type === "string[]" || field.type === "number[]") {
    // Strings are taken as JSON text already, as the reference does.
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  return value;
}

/** Brings loosely typed input to the field's type: ISO strings to dates, "true" to booleans. */
function toFieldType(field: ResolvedField, value: unknown): unknown {
  // Only safe integers get here (field-value.ts); number columns read back as numbers.
  if (typeof value === "bigint") return Number(value);
  if (field.type === "date" && typeof value === "string") return new Date(value);
  if (field.type === "boolean" && (value === "true" || value === "false")) return value === "true";
  if (
    field.type === "number" &&
    typeof value === "string" &&
    value.trim() !== "" &&
    !Number.isNaN(Number(value))
  ) {
    return Number(value);
  }
  return value;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** JSON text back to values; ISO-8601 UTC strings inside become dates, as the reference revives them. */
function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text, (_key, v: unknown) => {
      if (typeof v !== "string" || !ISO_DATE.test(v)) return v;
      const date = dateFromText(v);
      return Number.isNaN(date.getTime()) ? v : date;
    });
  } catch {
    // The reference answers null for text that is not JSON.
    return null;
  }
}

/** Decodes one column value to the field's JavaScript type. */
export function decodeValue(field: ResolvedField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // Ids (and columns referencing ids) are strings even when a driver hands back numbers.
  if (field === ID_FIELD || field.references?.field === "id") return String(value);
  switch (field.type) {
    case "date":
      if (value instanceof Date) return value;
      return typeof value === "string" ? dateFromText(value) : new Date(typeof value === "bigint" ? Number(value) : (value as number));
    case "boolean":
      if (typeof value === "boolean") return value;
      return typeof value === "string"
        ? ["1", "t", "true"].includes(value.toLowerCase())
        : Number(value) !== 0;
    case "number":
      // pg returns bigint and numeric as strings; better-sqlite3 may return bigint.
      return typeof value === "number" ? value : Number(value);
    case "json":
    case "string[]":
    case "number[]":
      return typeof value === "string" ? parseJSON(value) : value;
    default:
      return value;
  }
}

/** What reading one row of a model needs per output field: logical name, field, column. */
type ReadPlan = ReadonlyArray<readonly [name: string, field: ResolvedField, column: string]>;

// Whole-row reads of a model share one plan: a page of rows looks its fields up once, not per row.
const wholeRowPlans = new WeakMap<ResolvedModel, ReadPlan>();

/** The fields to read back for `select` (every field without one), with their columns. */
export function readPlan(model: ResolvedModel, select?: string[]): ReadPlan {
  const whole = !select?.length;
  const cached = whole ? wholeRowPlans.get(model) : undefined;
  if (cached) return cached;
  const plan: ReadPlan = outputFields(model, select).map((name) => {
    const field = fieldOf(model, name);
    return [name, field, field.fieldName] as const;
  });
  if (whole) wholeRowPlans.set(model, plan);
  return plan;
}

/** Turns a row keyed by physical columns into one keyed by logical fields, following `plan`. */
export function decodeWith<T extends Row>(plan: ReadPlan, row: Row): T {
  const out: Row = {};
  for (const [name, field, column] of plan) out[name] = decodeValue(field, row[column]);
  return out as T;
}

/** Turns a row keyed by physical columns into one keyed by logical fields. */
export function decodeRow<T extends Row>(model: ResolvedModel, row: Row, select?: string[]): T {
  return decodeWith<T>(readPlan(model, select), row);
}

/**
 * Encodes a logical record into physical column → value pairs; unknown keys are dropped as the
 * reference does. Values no column would hold intact are refused before any SQL is sent
 * (`fits`: strings too long for their column, on MySQL).
 */
export function encodeRow(
  model: ResolvedModel,
  data: Row,
  type: DatabaseType,
  fits?: ColumnFit,
): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(data)) {
    const field = key === "id" ? ID_FIELD : model.fields[key];
    if (!field || value === undefined) continue;
    assertStorable(model.model, key, field, value);
    const encoded = encodeValue(field, value, type);
    if (fits && typeof encoded === "string") fits(model, key, field, encoded);
    out.push([field.fieldName, encoded]);
  }
  return out;
}
