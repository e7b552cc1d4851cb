import type { ResolvedSchema } from "./field.js";

/**
 * Strips fields declared `returned: false` (passwords, provider tokens) from a row before it
 * leaves the server. Unknown keys pass through, like the reference's output parser.
 */
export function toOutput<T extends object>(schema: ResolvedSchema, model: string, row: T): T {
  const fields = schema[model]?.fields;
  if (!fields) return row;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (fields[key]?.returned === false) continue;
    out[key] = value;
  }
  return out as T;
}
