import type { AuthContext } from "../context.js";
import { APIError } from "../errors/api-error.js";

const CORE_USER_FIELDS = new Set(["id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt"]);

/**
 * Picks the configured additional user fields out of a request body. A field marked
 * `input: false` may not be set (400 `FIELD_NOT_ALLOWED`); a required one without a value or
 * default is missing (400 `MISSING_FIELD`). Keys that are no field are ignored.
 */
export function parseAdditionalUserInput(ctx: AuthContext, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, attr] of Object.entries(ctx.schema.user?.fields ?? {})) {
    if (CORE_USER_FIELDS.has(field)) continue;
    const value = input[field];
    if (value === undefined) {
      if (attr.required && attr.defaultValue === undefined && attr.input !== false) {
        throw new APIError("BAD_REQUEST", { message: `${field} is required`, code: "MISSING_FIELD" });
      }
      continue;
    }
    if (attr.input === false) {
      throw new APIError("BAD_REQUEST", {
        message: `${field} is not allowed to be set`,
        code: "FIELD_NOT_ALLOWED",
      });
    }
    out[field] = value;
  }
  return out;
}

