import type { SchemaDefinition } from "@latchkey/core";
import type { AdminSchemaOptions } from "./options.js";
import { adminSchema } from "./schema.js";

/** The admin columns with the physical names the `schema` option gives (the reference's `mergeSchema`). */
export function adminSchemaFor(renames: AdminSchemaOptions): SchemaDefinition {
  const out: SchemaDefinition = {};
  for (const [model, def] of Object.entries(adminSchema)) {
    const names = (renames as Record<string, { fields?: Record<string, string> } | undefined>)[model]?.fields ?? {};
    const fields = Object.fromEntries(
      Object.entries(def.fields).map(([name, field]) => [name, names[name] ? { ...field, fieldName: names[name] } : field]),
    );
    out[model] = { fields };
  }
  return out;
}
