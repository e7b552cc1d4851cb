import { dateFromText } from "../stored-date.js";
import type { ResolvedSchema } from "../field.js";

/**
 * Turns the ISO strings JSON left in a model's date fields back into `Date`s: the `date`
 * fields the schema declares, plus `always` (fields the reference writes even when a schema
 * no longer lists the table). Values that do not parse are left as they are.
 */
export function reviveDates<T>(
  schema: ResolvedSchema,
  model: string,
  value: Record<string, unknown>,
  always: readonly string[],
): T {
  const out: Record<string, unknown> = { ...value };
  const declared = Object.entries(schema[model]?.fields ?? {})
    .filter(([, field]) => field.type === "date")
    .map(([name]) => name);
  for (const field of new Set([...always, ...declared])) {
    const raw = out[field];
    if (typeof raw !== "string" && typeof raw !== "number") continue;
    const date = typeof raw === "string" ? dateFromText(raw) : new Date(raw);
    if (Number.isFinite(date.getTime())) out[field] = date;
  }
  return out as T;
}

/** True for a Date (or date-like value) that names a real instant. */
export function isValidDate(value: unknown): value is Date {
  return value instanceof Date && Number.isFinite(value.getTime());
}
