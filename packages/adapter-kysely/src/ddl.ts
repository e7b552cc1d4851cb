import { sql, type ColumnDefinitionBuilder, type CompiledQuery, type ColumnDataType } from "kysely";
import {
  BetterAuthError,
  orderedModels,
  type ResolvedField,
  type ResolvedModel,
  type ResolvedSchema,
} from "@latchkey/core";
import type { DB, DatabaseType } from "./dialect.js";
import { indexName } from "./index-name.js";
import { indexKey, listIndexes, listTables } from "./introspect.js";
import { columnType, tableIndexes, type PhysicalIndex } from "./column-type.js";

/** One DDL statement, compiled for inspection or executed. */
export interface Statement {
  compile(): CompiledQuery;
  execute(): Promise<unknown>;
}

const isTimestampDefault = (field: ResolvedField, type: DatabaseType): boolean =>
  field.type === "date" && typeof field.defaultValue === "function" && type !== "sqlite";

/** A literal default the reference writes into ALTER TABLE … ADD COLUMN (never on CREATE TABLE). */
function staticDefault(field: ResolvedField): string | number | boolean | undefined {
  const value = field.defaultValue;
  if (field.unique && field.required === false) return undefined;
  if (field.type !== "string" && field.type !== "number" && field.type !== "boolean") return undefined;
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? value
    : undefined;
}

/**
 * Column constraints in the reference's order: NOT NULL unless optional, the foreign key
 * (`ON DELETE` defaults to cascade), inline UNIQUE on CREATE TABLE, and `CURRENT_TIMESTAMP`
 * (`(3)` on MySQL) for dates whose app default is a function, except on SQLite.
 */
function constrain(
  col: ColumnDefinitionBuilder,
  field: ResolvedField,
  schema: ResolvedSchema,
  type: DatabaseType,
  adding: boolean,
): ColumnDefinitionBuilder {
  let c = field.required !== false ? col.notNull() : col;
  if (field.references) {
    const target = schema[field.references.model];
    const table = target?.tableName ?? field.references.model;
    const column =
      field.references.field === "id"
        ? "id"
        : (target?.fields[field.references.field]?.fieldName ?? field.references.field);
    c = c.references(`${table}.${column}`).onDelete(field.references.onDelete ?? "cascade");
  }
  if (field.unique && !adding) c = c.unique();
  if (isTimestampDefault(field, type)) {
    c = c.defaultTo(type === "mysql" ? sql`CURRENT_TIMESTAMP(3)` : sql`CURRENT_TIMESTAMP`);
  } else if (adding) {
    const value = staticDefault(field);
    if (value !== undefined)
      c = c.defaultTo(typeof value === "boolean" && type === "sqlite" ? Number(value) : value);
  }
  return c;
}

/**
 * The statements that bring the database up to `schema`, as the reference's migration tool
 * plans them: CREATE TABLE for missing tables (inline UNIQUE, then `<table>_<column>_idx`
 * indexes), one ALTER TABLE … ADD COLUMN per missing column (with `_uidx`/`_idx` indexes), and
 * any table-level or field-level index that is missing. Models with `disableMigration` are
 * skipped. Refuses, before changing anything, to add a required column without a default to
 * a table that has rows: existing rows would have no value (MySQL would invent one).
 */
export async function planMigrations(
  db: DB,
  type: DatabaseType,
  schema: ResolvedSchema,
): Promise<Statement[]> {
  const tables = new Map((await listTables(db, type)).map((t) => [t.name, t]));
  const existingIndexes = await listIndexes(db, type);
  const creates: Statement[] = [];
  const alters: Statement[] = [];
  const indexes: Statement[] = [];
  const addIndex = (table: string, index: PhysicalIndex): void => {
    if (existingIndexes.has(indexKey(table, index.name))) return;
    existingIndexes.add(indexKey(table, index.name));
    const builder = db.schema.createIndex(index.name).on(table).columns(index.columns);
    indexes.push(index.unique ? builder.unique() : builder);
  };

  for (const model of orderedModels(schema).filter((m) => !m.disableMigration)) {
    const existing = tables.get(model.tableName);
    const fields = Object.values(model.fields);
    if (!existing) {
      let create = db.schema
        .createTable(model.tableName)
        .addColumn("id", columnType(model, "id", null, type), (c) => c.primaryKey().notNull());
      for (const field of fields) {
        const dataType: ColumnDataType = columnType(model, field.fieldName, field, type);
        create = create.addColumn(field.fieldName, dataType, (c) => constrain(c, field, schema, type, false));
      }
      creates.push(create);
    } else {
      const present = new Set(existing.columns.map((c) => c.name));
      const missing = fields.filter((f) => !present.has(f.fieldName));
      await refuseUnsafeAdditions(db, model, missing, type);
      for (const field of missing) {
        const dataType: ColumnDataType = columnType(model, field.fieldName, field, type);
        alters.push(
          db.schema
            .alterTable(model.tableName)
            .addColumn(field.fieldName, dataType, (c) => constrain(c, field, schema, type, true)),
        );
        // SQLite cannot add a UNIQUE column, so an added unique column gets a unique index.
        if (field.unique)
          addIndex(model.tableName, {
            name: indexName(model.tableName, [field.fieldName], true),
            columns: [field.fieldName],
            unique: true,
          });
      }
    }
    for (const field of fields) {
      if (field.index && !field.unique) {
        addIndex(model.tableName, {
          name: indexName(model.tableName, [field.fieldName], false),
          columns: [field.fieldName],
          unique: false,
        });
      }
    }
    for (const index of tableIndexes(model)) addIndex(model.tableName, index);
  }
  return [...creates, ...alters, ...indexes];
}

async function refuseUnsafeAdditions(
  db: DB,
  model: ResolvedModel,
  missing: ResolvedField[],
  type: DatabaseType,
): Promise<void> {
  const unsafe = missing.filter(
    (f) => f.required !== false && !isTimestampDefault(f, type) && staticDefault(f) === undefined,
  );
  if (unsafe.length === 0) return;
  const { rows } = await sql`SELECT 1 AS present FROM ${sql.table(model.tableName)} LIMIT 1`.execute(db);
  if (rows.length === 0) return;
  const columns = unsafe.map((f) => `"${f.fieldName}"`).join(", ");
  throw new BetterAuthError(
    `Cannot add required column(s) ${columns} to populated table "${model.tableName}": the schema declares no default value, so existing rows have no value to backfill. Add the column as nullable, backfill every row, then make it NOT NULL.`,
  );
}
