import { BetterAuthError, type ResolvedField, type ResolvedModel } from "@latchkey/core";
import type { DatabaseType } from "./database-type.js";
import { indexName } from "./index-name.js";

/** A table-level index with physical column names and its final name. */
export interface PhysicalIndex {
  name: string;
  columns: string[];
  unique: boolean;
  /** Partial index: the rows whose `column` contains `contains` (per dialect: partial-index.ts). */
  where?: { column: string; contains: string };
}

const isText = (field: ResolvedField | undefined): boolean =>
  field !== undefined && (field.type === "string" || Array.isArray(field.type));

/** The model's table-level indexes over physical columns, named as the reference names them. */
export function tableIndexes(model: ResolvedModel): PhysicalIndex[] {
  const column = (name: string): string => {
    const field = name === "id" ? undefined : model.fields[name];
    if (name !== "id" && !field) {
      throw new BetterAuthError(`Index on table "${model.tableName}" references unknown field "${name}".`);
    }
    return field?.fieldName ?? "id";
  };
  return (model.indexes ?? []).map((index) => {
    const columns = index.fields.map(column);
    return {
      name: indexName(model.tableName, columns, index.unique ?? false, index.name),
      columns,
      unique: index.unique ?? false,
      ...(index.where ? { where: { column: column(index.where.field), contains: index.where.value } } : {}),
    };
  });
}

/**
 * MySQL length of a text column inside table-level indexes: 191 characters (4-byte utf8mb4 ×
 * 191 fits the old 767-byte key limit), less when an index spans several text columns and
 * would pass InnoDB's 3072-byte limit. `undefined` when no table-level index holds it.
 */
function mysqlIndexedLength(model: ResolvedModel, column: string): number | undefined {
  const byColumn = new Map(Object.values(model.fields).map((f) => [f.fieldName, f]));
  let length: number | undefined;
  for (const index of tableIndexes(model)) {
    // On MySQL a partial index is on its predicate column alone: it does not size the others.
    if (index.where || !index.columns.includes(column)) continue;
    const texts = index.columns.filter((c) => isText(byColumn.get(c))).length;
    if (texts === 0) continue;
    const otherBytes = (index.columns.length - texts) * 16;
    const safe = Math.floor(Math.max(1, 3072 - otherBytes) / 4 / texts);
    length = Math.min(length ?? 191, safe);
  }
  return length;
}

/**
 * Column type per dialect, the reference's type map (core.md §2.3) with one deliberate change:
 * on MySQL a text column with a unique constraint is `varchar(191)` (the spec's rule, so the
 * utf8mb4 key fits any row format), where the reference writes `varchar(255)`.
 */
export function columnType(
  model: ResolvedModel,
  column: string,
  field: ResolvedField | null,
  type: DatabaseType,
): string {
  // Ids and columns referencing ids: text, or varchar(36) on MySQL (a 32-character id or a UUID fits).
  if (!field || field.references?.field === "id") return type === "mysql" ? "varchar(36)" : "text";
  switch (field.type) {
    case "boolean":
      return type === "sqlite" ? "integer" : "boolean";
    case "number":
      return field.bigint ? "bigint" : "integer";
    case "date":
      return type === "sqlite" ? "date" : type === "postgres" ? "timestamptz" : "timestamp(3)";
    case "json":
    case "string[]":
    case "number[]":
      return type === "sqlite" ? "text" : type === "postgres" ? "jsonb" : "json";
  }
  // Strings and string enums.
  if (type !== "mysql") return "text";
  const indexed = mysqlIndexedLength(model, column);
  if (indexed !== undefined) return `varchar(${indexed})`;
  if (field.unique) return "varchar(191)";
  if (Array.isArray(field.type)) return "text";
  if (field.references) return "varchar(36)";
  return field.sortable || field.index ? "varchar(255)" : "text";
}
