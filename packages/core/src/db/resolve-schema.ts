import {
  ON_DELETE_ACTIONS,
  type DBField,
  type ModelSchema,
  type ResolvedModel,
  type ResolvedSchema,
  type SchemaDefinition,
} from "./field.js";

/** Per-model renames and additions from the options (`user: { modelName, fields, additionalFields }`). */
export interface ModelOverrides {
  modelName?: string;
  /** Logical field → physical column. */
  fields?: Record<string, string>;
  additionalFields?: Record<string, DBField>;
}

/**
 * Merges schema sources in order (core, then each plugin): a model declared twice gets the
 * union of its fields; the same field declared twice with a different type is a
 * configuration error. Overrides then rename tables and columns and add fields.
 */
export function resolveSchema(
  sources: Array<{ owner: string; schema: SchemaDefinition }>,
  overrides: Record<string, ModelOverrides | undefined> = {},
): ResolvedSchema {
  const merged: Record<string, ModelSchema & { owners: Record<string, string> }> = {};
  for (const { owner, schema } of sources) {
    for (const [model, def] of Object.entries(schema)) {
      const target = (merged[model] ??= { fields: {}, owners: {}, order: def.order });
      if (def.modelName) target.modelName = def.modelName;
      if (def.disableMigration) target.disableMigration = true;
      for (const index of def.indexes ?? []) {
        // Two sources declaring the same index (name, fields, uniqueness, rows) yield one index.
        const keyOf = (i: typeof index): string =>
          JSON.stringify([i.name ?? null, i.fields, i.unique ?? false, i.where ?? null]);
        const key = keyOf(index);
        const known = (target.indexes ??= []).some((i) => keyOf(i) === key);
        if (!known) target.indexes.push(index);
      }
      for (const [field, attr] of Object.entries(def.fields)) {
        const prior = target.fields[field];
        if (prior && JSON.stringify(prior.type) !== JSON.stringify(attr.type)) {
          throw new TypeError(
            `Field "${model}.${field}" is declared by ${target.owners[field]} as ${String(prior.type)} and by ${owner} as ${String(attr.type)}.`,
          );
        }
        target.fields[field] = { ...prior, ...attr };
        target.owners[field] ??= owner;
      }
    }
  }
  const resolved: ResolvedSchema = {};
  let nextOrder = 10;
  for (const [model, def] of Object.entries(merged)) {
    const override = overrides[model] ?? {};
    const fields: ResolvedModel["fields"] = {};
    const all = { ...def.fields, ...override.additionalFields };
    for (const [field, attr] of Object.entries(all)) {
      assertOnDelete(model, field, attr);
      fields[field] = { ...attr, fieldName: override.fields?.[field] ?? attr.fieldName ?? field };
    }
    resolved[model] = {
      model,
      tableName: override.modelName ?? def.modelName ?? model,
      fields,
      order: def.order ?? nextOrder++,
      disableMigration: def.disableMigration ?? false,
      ...(def.indexes?.length ? { indexes: def.indexes } : {}),
    };
  }
  const tables = new Map<string, string>();
  for (const m of Object.values(resolved)) {
    const owner = tables.get(m.tableName);
    if (owner) throw new TypeError(`Models "${owner}" and "${m.model}" both use table "${m.tableName}".`);
    tables.set(m.tableName, m.model);
  }
  return resolved;
}

/**
 * A reference's `onDelete` is written into DDL: anything outside the reference's list is a
 * configuration error (the message leaves the configured text out).
 */
export function assertOnDelete(model: string, field: string, attr: DBField): void {
  const action: unknown = attr.references?.onDelete;
  if (action !== undefined && !(ON_DELETE_ACTIONS as readonly unknown[]).includes(action)) {
    throw new TypeError(
      `Field "${model}.${field}" has an unknown references.onDelete; expected one of ${ON_DELETE_ACTIONS.map((a) => `"${a}"`).join(", ")}.`,
    );
  }
}

/** Models in creation order (referenced tables first). */
export function orderedModels(schema: ResolvedSchema): ResolvedModel[] {
  return Object.values(schema).sort((a, b) => a.order - b.order);
}
