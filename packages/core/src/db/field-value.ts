import { BetterAuthError } from "../errors/api-error.js";
import type { Where } from "./adapter.js";
import type { ResolvedField } from "./field.js";

// What every adapter refuses before a value reaches its store, so all of them fail the same
// way instead of each driver doing something of its own: mysql2 expands an object into
// `key = value` lists (an injection-like hazard), better-sqlite3 throws on it, pg sends its
// JSON text. Strings must survive every database unchanged: PostgreSQL refuses NUL in text
// and jsonb, and every driver turns an unpaired surrogate into U+FFFD when it encodes UTF-8,
// so a different value would be read back. Messages name the field and the kind of value,
// never the value itself. Kept small: it is in every edge bundle.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored intact, or `null`. */
const textProblem = (text: string): string | null =>
  text.includes("\0") ? "a NUL character" : LONE_SURROGATE.test(text) ? "an unpaired surrogate" : null;

/** The kind of a value, for messages. */
const kindOf = (value: unknown): string =>
  Array.isArray(value)
    ? "a list"
    : value instanceof Date
      ? "a date"
      : typeof value === "object"
        ? "an object"
        : `a ${typeof value}`;

/**
 * Why `value` cannot be stored and read back unchanged, or `null`. `json` is set inside JSON
 * and list values, where plain objects and lists are data; `open` holds the containers being
 * walked, so a circular structure is refused instead of overflowing JSON.stringify.
 */
function problemOf(value: unknown, field: ResolvedField, json: boolean, open: Set<object>): string | null {
  switch (typeof value) {
    case "undefined":
    case "boolean":
      return null;
    case "string":
      if (!json && field.type === "date" && Number.isNaN(Date.parse(value)))
        return "a string that is not a date";
      return textProblem(value);
    case "number":
      // No column type round-trips NaN or ±Infinity on all three databases.
      return Number.isFinite(value) ? null : "a non-finite number";
    case "bigint":
      // Number columns read back as JavaScript numbers, so only exactly representable ones fit.
      return !json && field.type === "number" && Number.isSafeInteger(Number(value)) ? null : "a bigint";
    case "object": {
      if (value === null) return null;
      if (value instanceof Date && (json || field.type === "date")) {
        return Number.isNaN(value.getTime()) ? "an invalid date" : null;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      // JSON.stringify drops a Map's entries, a class's methods and so on: plain data only.
      if (!json || (!Array.isArray(value) && proto !== Object.prototype && proto !== null))
        return kindOf(value);
      if (open.has(value)) return "a circular structure";
      open.add(value);
      for (const [key, item] of Object.entries(value)) {
        const problem = textProblem(key) ?? problemOf(item, field, true, open);
        if (problem) return problem;
      }
      open.delete(value);
      return null;
    }
    default:
      // Functions and symbols vanish from JSON text and no driver binds them.
      return kindOf(value);
  }
}

/** Why `value` cannot be stored in `field` and read back unchanged, or `null` when it can. */
function valueProblem(field: ResolvedField, value: unknown): string | null {
  const json = field.type === "json" || field.type === "string[]" || field.type === "number[]";
  if (!json || typeof value !== "string") return problemOf(value, field, json, new Set());
  // JSON text is stored as given (reference rule); escaped NULs and surrogates count as the characters.
  const problem = textProblem(value);
  if (problem || !value.includes("\\u")) return problem;
  try {
    return problemOf(JSON.parse(value), field, true, new Set());
  } catch {
    return null;
  }
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
 * Throws a `BetterAuthError` when a where clause compares `model.field` with a value the field
 * could not hold: `in` / `not_in` check each element, the pattern operators need a string,
 * number or boolean.
 */
export function assertComparable(model: string, where: Where, field: ResolvedField): void {
  const op = where.operator ?? "eq";
  const raw: unknown = where.value;
  let problem: string | null = null;
  if (op === "contains" || op === "starts_with" || op === "ends_with") {
    const primitive = typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean";
    problem = primitive ? textProblem(String(raw)) : kindOf(raw);
  } else if ((op === "in" || op === "not_in") && Array.isArray(raw)) {
    for (const item of raw as unknown[]) if ((problem = valueProblem(field, item))) break;
  } else {
    problem = valueProblem(field, raw);
  }
  if (problem) throw new BetterAuthError(`Cannot compare "${model}.${where.field}" with ${problem}.`);
}

/** A string no column can hold (a NUL, an unpaired surrogate): it equals no stored value. */
const unmatchable = (value: unknown): boolean => typeof value === "string" && textProblem(value) !== null;

/**
 * A where clause as an adapter runs it. Lookups often carry client input (a token, a state),
 * so a string no column can hold is not an error there: it decides the clause, equal to no
 * stored value (`false`) and different from every one (`ne`: `true`), and `in` / `not_in`
 * drop such elements. Values of the wrong kind still throw, as `assertComparable` says.
 */
export function comparableWhere(model: string, where: Where, field: ResolvedField): Where | boolean {
  const op = where.operator ?? "eq";
  let clause = where;
  if ((op === "in" || op === "not_in") && Array.isArray(where.value)) {
    const kept = (where.value as unknown[]).filter((item) => !unmatchable(item));
    if (kept.length !== where.value.length) clause = { ...where, value: kept as Where["value"] };
  } else if (unmatchable(where.value)) {
    return op === "ne";
  }
  assertComparable(model, clause, field);
  return clause;
}

/** Throws a `BetterAuthError` unless an `incrementOne` delta for `model.name` is a finite number. */
export function assertDelta(model: string, name: string, delta: unknown): void {
  if (typeof delta !== "number" || !Number.isFinite(delta)) {
    const kind = typeof delta === "number" ? "a non-finite number" : kindOf(delta);
    throw new BetterAuthError(`Cannot increment "${model}.${name}" by ${kind}.`);
  }
}

/** Throws a `BetterAuthError` unless `limit` and `offset` are absent or non-negative integers. */
export function assertPaging(limit: unknown, offset: unknown): void {
  if ([limit, offset].some((v) => v !== undefined && !(Number.isSafeInteger(v) && (v as number) >= 0))) {
    throw new BetterAuthError("findMany's limit and offset must be non-negative integers.");
  }
}
