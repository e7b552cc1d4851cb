import { APIError, assertStorable, BetterAuthError, type EndpointContext } from "@latchkey/core";

/** Fields an administrator never writes through `data`: the row id and its bookkeeping dates. */
const NEVER = new Set(["id", "createdAt", "updatedAt"]);

const invalid = (field: string): APIError =>
  new APIError("BAD_REQUEST", { code: "VALIDATION_ERROR", message: `Invalid value for field ${field}` });

/** One value converted for its column's type, or a 400 naming the field (never the value). */
function convert(field: string, type: string, value: unknown): unknown {
  if (value === null) return null;
  switch (type) {
    case "string":
      if (typeof value !== "string") throw invalid(field);
      return value;
    case "boolean":
      if (typeof value !== "boolean") throw invalid(field);
      return value;
    case "number":
      if (typeof value !== "number") throw invalid(field);
      return value;
    case "date": {
      // JSON has no dates: an ISO string or epoch milliseconds, as a client sends them.
      if (typeof value !== "string" && typeof value !== "number") throw invalid(field);
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) throw invalid(field);
      return date;
    }
    default:
      return value;
  }
}

/**
 * The user columns an administrator's `data` object sets: keys that are user fields (core's,
 * the admin plugin's and additional ones) converted for their column, other keys dropped as
 * the reference's adapter drops them. A value of the wrong kind is 400 `VALIDATION_ERROR`
 * instead of a database error.
 */
export function userColumns(ctx: EndpointContext, data: Record<string, unknown>): Record<string, unknown> {
  const fields = ctx.context.schema.user?.fields ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (NEVER.has(key) || !Object.hasOwn(fields, key) || value === undefined) continue;
    const field = fields[key]!;
    const converted = convert(key, field.type as string, value);
    try {
      assertStorable("user", key, field, converted);
    } catch (error) {
      if (error instanceof BetterAuthError) throw invalid(key);
      throw error;
    }
    out[key] = converted;
  }
  return out;
}
