import type { AuthContext } from "../context.js";
import { APIError } from "../errors/api-error.js";

/** Fields every user row has; only the configured additional fields are parsed from input. */
const CORE_FIELDS: Record<string, ReadonlySet<string>> = {
  user: new Set(["id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt"]),
  session: new Set(["id", "expiresAt", "token", "createdAt", "updatedAt", "ipAddress", "userAgent", "userId"]),
};

/**
 * Picks the additional fields of `model` (options and plugins) out of client input, as the
 * reference's input parser does: a field marked `input: false` may not be set (400
 * `FIELD_NOT_ALLOWED` for a truthy value; on create its default is used instead), a required
 * field without a value or default is missing on create (400 `MISSING_FIELD`), defaults fill
 * the rest on create, and keys that are no field are ignored.
 */
export function parseInput(
  ctx: AuthContext,
  model: "user" | "session",
  input: Record<string, unknown>,
  action: "create" | "update",
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, attr] of Object.entries(ctx.schema[model]?.fields ?? {})) {
    if (CORE_FIELDS[model]!.has(field)) continue;
    const defaultValue = (): unknown =>
      typeof attr.defaultValue === "function" ? (attr.defaultValue as () => unknown)() : attr.defaultValue;
    if (field in input) {
      if (attr.input === false) {
        if (attr.defaultValue !== undefined && action === "create") {
          out[field] = defaultValue();
          continue;
        }
        if (input[field]) {
          throw new APIError("BAD_REQUEST", { message: `${field} is not allowed to be set`, code: "FIELD_NOT_ALLOWED" });
        }
        continue;
      }
      out[field] = input[field];
      continue;
    }
    if (action !== "create") continue;
    if (attr.defaultValue !== undefined) out[field] = defaultValue();
    else if (attr.required) throw new APIError("BAD_REQUEST", { message: `${field} is required`, code: "MISSING_FIELD" });
  }
  return out;
}
