import type { ModelSchema, SchemaDefinition } from "@latchkey/core";
import type { TwoFactorOptions } from "./options.js";
import { twoFactorSchema } from "./schema.js";

/** Renames fields of `model` by `renames` (logical name → column name), as the reference's `schema` option. */
function renamed(model: ModelSchema, renames: Record<string, string | undefined> = {}): ModelSchema {
  const fields = Object.fromEntries(
    Object.entries(model.fields).map(([name, field]) => [name, renames[name] ? { ...field, fieldName: renames[name] } : field]),
  );
  return { ...model, fields };
}

/** The plugin's schema with `twoFactorTable` and `schema` renames applied. */
export function twoFactorSchemaFor(options: TwoFactorOptions = {}): SchemaDefinition {
  const table = options.schema?.twoFactor;
  const modelName = options.twoFactorTable ?? table?.modelName;
  const twoFactor = renamed(twoFactorSchema.twoFactor, table?.fields);
  return {
    user: renamed(twoFactorSchema.user, options.schema?.user?.fields),
    twoFactor: modelName ? { ...twoFactor, modelName } : twoFactor,
  };
}
