import { BetterAuthError } from "../errors/api-error.js";
import type { Where } from "./adapter.js";
import type { ResolvedField } from "./field.js";

// What every adapter refuses before a value reaches its store, so all of them fail the same
// way instead of each driver doing something of its own: mysql2 expands an object into
// `key = value` lists (an injection-like hazard), better-sqlite3 throws on it, pg sends its
// JSON text. Strings must survive every database unchanged: PostgreSQL refuses NUL in text
// and jsonb, and every driver turns an unpaired surrogate into U+FFFD when it encodes UTF-8,
// so a different value would be read back. Messages name the field and the kind of value,
// never the value itself.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isStructured = (field: ResolvedField): boolean =>
  field.type === "json" || field.type === "string[]" || field.type === "number[]";

/** Why `text` cannot be stored intact, or `null`. */
function textProblem(text: string): string | null {
  if (text.includes("\0")) return "a string containing a NUL character";
  if (LONE_SURROGATE.test(text)) return "a string containing an unpaired UTF-16 surrogate";
  return null;
}

/** The kind of a value no column type takes as is. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) return "a date";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Why a value cannot go into a scalar column of `field`'s type, or `null`. */
function scalarProblem(field: ResolvedField, value: unknown): string | null {
  switch (typeof value) {
    case "undefined":
    case "boolean":
      return null;
    case "string":
      if (field.type === "date" && Number.isNaN(Date.parse(value))) return "a string that is not a date";
      return textProblem(value);
    case "number":
      // No column type round-trips NaN or ±Infinity on all three databases.
      return Number.isFinite(value) ? null : "a non-finite number";
    case "bigint":
      // Number columns read back as JavaScript numbers, so only exactly representable ones fit.
      return field.type === "number" && Number.isSafeInteger(Number(value)) ? null : "a bigint";
    case "object":
      if (value === null) return null;
      if (value instanceof Date && field.type === "date") {
        return Number.isNaN(value.getTime()) ? "an invalid date" : null;
      }
      return kindOf(value);
    default:
      return kindOf(value);
  }
}

/** Why a value cannot be stored as JSON text and parsed back equal, or `null`. */
function jsonProblem(value: unknown, open: Set<object>): string | null {
  switch (typeof value) {
    case "undefined":
    case "boolean":
      return null;
    case "string":
      return textProblem(value);
    case "number":
      return Number.isFinite(value) ? null : "a non-finite number";
    case "object": {
      if (value === null) return null;
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? "an invalid date" : null;
      const proto: unknown = Object.getPrototypeOf(value);
      // JSON.stringify drops a Map's entries, a class's methods and so on: plain data only.
      if (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
        return "an object that is not plain data";
      if (open.has(value)) return "a circular structure";
      open.add(value);
      for (const [key, item] of Object.entries(value)) {
        const problem = textProblem(key) ?? jsonProblem(item, open);
        if (problem) return problem;
      }
      open.delete(value);
      return null;
    }
    default:
      // Functions and symbols vanish from JSON text, bigints make JSON.stringify throw.
      return kindOf(value);
  }
}

/** JSON text is stored as given (reference rule); escaped NULs and surrogates count as the characters. */
function jsonTextProblem(text: string): string | null {
  const problem = textProblem(text);
  if (problem || !text.includes("\\u")) return problem;
  try {
    return jsonProblem(JSON.parse(text), new Set());
  } catch {
    return null;
  }
}

/** Why `value` cannot be stored in `field` and read back unchanged, or `null` when it can. */
export function valueProblem(field: ResolvedField, value: unknown): string | null {
  if (!isStructured(field)) return scalarProblem(field, value);
  return typeof value === "string" ? jsonTextProblem(value) : jsonProblem(value, new Set());
}

/**
 * Throws a `BetterAuthError` naming `model.name` (never the value) when `value` cannot be
 * stored in `field` and read back unchanged: an object, list, function, symbol or date for a
 * scalar column, a bigint outside number columns, a NUL or an unpaired surrogate in a string,
 * or JSON that would not parse back equal.
 */
export function assertStorable(model: string, name: string, field: ResolvedField, value: unknown): void {
  const problem = valueProblem(field, value);
  if (problem) throw new BetterAuthError(`Cannot store ${problem} in "${model}.${name}".`);
}

/**
 * Throws a `BetterAuthError` when a where clause compares `model.name` with a value the field
 * could not hold: `in` / `not_in` check each element, the pattern operators need a string,
 * number or boolean.
 */
export function assertComparable(model: string, where: Where, field: ResolvedField): void {
  const op = where.operator ?? "eq";
  const raw: unknown = where.value;
  let problem: string | null;
  if (op === "contains" || op === "starts_with" || op === "ends_with") {
    const primitive = typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean";
    problem = primitive ? textProblem(String(raw)) : kindOf(raw);
  } else if ((op === "in" || op === "not_in") && Array.isArray(raw)) {
    problem = null;
    for (const item of raw as unknown[]) if ((problem = valueProblem(field, item))) break;
  } else {
    problem = valueProblem(field, raw);
  }
  if (problem) throw new BetterAuthError(`Cannot compare "${model}.${where.field}" with ${problem}.`);
}

/** Throws a `BetterAuthError` unless an `incrementOne` delta for `model.name` is a finite number. */
export function assertDelta(model: string, name: string, delta: unknown): void {
  if (typeof delta !== "number" || !Number.isFinite(delta)) {
    throw new BetterAuthError(
      `Cannot increment "${model}.${name}" by ${kindOf(delta)}; a finite number is needed.`,
    );
  }
}

/** Throws a `BetterAuthError` unless `limit` and `offset` are absent or non-negative integers. */
export function assertPaging(limit: unknown, offset: unknown): void {
  for (const [name, value] of [
    ["limit", limit],
    ["offset", offset],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      throw new BetterAuthError(`findMany's ${name} must be a non-negative integer.`);
    }
  }
}
