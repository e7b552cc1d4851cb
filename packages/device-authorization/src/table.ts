import type { SchemaDefinition } from "@latchkey/core";
import type { DeviceAuthorizationOptions } from "./options.js";
import { deviceAuthorizationSchema } from "./schema.js";

/** The `deviceCode` table with the physical names the `schema` option gives (the reference's `mergeSchema`), with `extraFields` added. */
export function schemaFor(options: DeviceAuthorizationOptions, extraFields: SchemaDefinition[string]["fields"] = {}): SchemaDefinition {
  const base = deviceAuthorizationSchema.deviceCode;
  const table = { ...base, fields: { ...base.fields, ...extraFields } };
  const renames = options.schema?.deviceCode;
  const columns = (renames?.fields ?? {}) as Record<string, string | undefined>;
  const fields = Object.fromEntries(
    Object.entries(table.fields).map(([name, field]) => [name, columns[name] ? { ...field, fieldName: columns[name] } : field]),
  );
  return { deviceCode: { ...table, fields, ...(renames?.modelName ? { modelName: renames.modelName } : {}) } };
}

