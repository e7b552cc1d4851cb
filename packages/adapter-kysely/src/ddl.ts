import {
  assertOnDelete,
  BetterAuthError,
  orderedModels,
  type ResolvedField,
  type ResolvedModel,
  type ResolvedSchema,
} from "@latchkey/core";
import { columnType, tableIndexes, type PhysicalIndex } from "./column-type.js";
import type { DatabaseType } from "./database-type.js";
import { run, type Executor } from "./executor.js";
import { indexName } from "./index-name.js";
import { indexKey, listIndexes, listTables } from "./introspect.js";
import { flagColumn } from "./partial-index.js";
import { compile, quote, sql, table, type Compiled } from "./sql.js";
import { escapeLike } from "./where.js";

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

/** A literal in DDL, as Kysely writes immediate values: quotes doubled (and, on MySQL, backslashes). */
function literal(value: string | number | boolean, type: DatabaseType): string {
  if (typeof value !== "string") return String(value);
  const escaped = value.replace(/[\\']/g, (c) => (c === "'" ? "''" : type === "mysql" ? "\\\\" : c));
  return `'${escaped}'`;
}

/** A table name, `schema.table` qualified, quoted. */
const tableName = (name: string, type: DatabaseType): string => compile(sql`${table(name)}`, type).sql;

/**
 * One column definition in the text Kysely's schema builder wrote for the reference's migration
 * tool: name and type, then `default`, `not null`, `unique`, `primary key` and `references … on
 * delete …` in that order. NOT NULL unless optional; the foreign key (`ON DELETE` defaults to
 * cascade); inline UNIQUE on CREATE TABLE; `CURRENT_TIMESTAMP` (`(3)` on MySQL) for dates whose
 * app default is a function, except on SQLite; on ADD COLUMN, a literal default when the field has one.
 */
function columnDefinition(
  model: ResolvedModel,
  field: ResolvedField,
  schema: ResolvedSchema,
  type: DatabaseType,
  adding: boolean,
): string {
  let text = `${quote(field.fieldName, type)} ${columnType(model, field.fieldName, field, type)}`;
  if (isTimestampDefault(field, type)) {
    text += type === "mysql" ? " default CURRENT_TIMESTAMP(3)" : " default CURRENT_TIMESTAMP";
  } else if (adding) {
    const value = staticDefault(field);
    if (value !== undefined)
      text += ` default ${literal(typeof value === "boolean" && type === "sqlite" ? Number(value) : value, type)}`;
  }
  if (field.required !== false) text += " not null";
  if (field.unique && !adding) text += " unique";
  if (field.references) {
    const target = schema[field.references.model];
    const referenced = target?.tableName ?? field.references.model;
    const column =
      field.references.field === "id"
        ? "id"
        : (target?.fields[field.references.field]?.fieldName ?? field.references.field);
    text += ` references ${tableName(referenced, type)} (${quote(column, type)}) on delete ${field.references.onDelete ?? "cascade"}`;
  }
  return text;
}

const statement = (text: string): Compiled => ({ sql: text, parameters: [] });

/**
 * The statements that bring the database up to `schema`, as the reference's migration tool
 * plans them: CREATE TABLE for missing tables (inline UNIQUE, then `<table>_<column>_idx`
 * indexes), one ALTER TABLE … ADD COLUMN per missing column (with `_uidx`/`_idx` indexes), and
 * any table-level or field-level index that is missing. Models with `disableMigration` are
 * skipped. Refuses, before changing anything, to add a required column without a default to
 * a table that has rows: existing rows would have no value (MySQL would invent one).
 */
export async function planMigrations(x: Executor): Promise<Compiled[]> {
  const { type, schema } = x;
  // `onDelete` is written into the DDL text: a schema built without resolveSchema is checked too.
  for (const model of Object.values(schema)) {
    for (const [name, field] of Object.entries(model.fields)) assertOnDelete(model.model, name, field);
  }
  const tables = await listTables(x);
  const existingIndexes = await listIndexes(x);
  const creates: Compiled[] = [];
  const alters: Compiled[] = [];
  const indexes: Compiled[] = [];
  const addIndex = (on: string, index: PhysicalIndex): void => {
    if (existingIndexes.has(indexKey(on, index.name))) return;
    existingIndexes.add(indexKey(on, index.name));
    // A partial index's predicate is the very text a `contains` clause compiles to (where.ts),
    // with the pattern inlined: a planner uses the index only for a query whose clause implies it.
    const predicate = index.where
      ? `${quote(index.where.column, type)} LIKE ${literal(`%${escapeLike(index.where.contains)}%`, type)} ESCAPE '!'`
      : "";
    if (index.where && type === "mysql") {
      // No partial indexes: the predicate in an invisible virtual column, indexed (partial-index.ts).
      const flag = flagColumn(index);
      if (!tables.get(on)?.has(flag)) {
        indexes.push(
          statement(
            `alter table ${tableName(on, type)} add column ${quote(flag, type)} tinyint as (${predicate}) virtual invisible`,
          ),
        );
      }
      indexes.push(statement(`create index ${quote(index.name, type)} on ${tableName(on, type)} (${quote(flag, type)})`));
      return;
    }
    const columns = index.columns.map((c) => quote(c, type)).join(", ");
    const rows = index.where ? ` where ${predicate}` : "";
    indexes.push(
      statement(
        `create ${index.unique ? "unique " : ""}index ${quote(index.name, type)} on ${tableName(on, type)} (${columns})${rows}`,
      ),
    );
  };

  for (const model of orderedModels(schema).filter((m) => !m.disableMigration)) {
    const existing = tables.get(model.tableName);
    const fields = Object.values(model.fields);
    if (!existing) {
      const columns = [
        `${quote("id", type)} ${columnType(model, "id", null, type)} not null primary key`,
        ...fields.map((field) => columnDefinition(model, field, schema, type, false)),
      ];
      creates.push(statement(`create table ${tableName(model.tableName, type)} (${columns.join(", ")})`));
    } else {
      const missing = fields.filter((f) => !existing.has(f.fieldName));
      await refuseUnsafeAdditions(x, model, missing);
      for (const field of missing) {
        alters.push(
          statement(
            `alter table ${tableName(model.tableName, type)} add column ${columnDefinition(model, field, schema, type, true)}`,
          ),
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
  x: Executor,
  model: ResolvedModel,
  missing: ResolvedField[],
): Promise<void> {
  const unsafe = missing.filter(
    (f) => f.required !== false && !isTimestampDefault(f, x.type) && staticDefault(f) === undefined,
  );
  if (unsafe.length === 0) return;
  const { rows } = await run(x, sql`SELECT 1 AS present FROM ${table(model.tableName)} LIMIT 1`);
  if (rows.length === 0) return;
  const columns = unsafe.map((f) => `"${f.fieldName}"`).join(", ");
  throw new BetterAuthError(
    `Cannot add required column(s) ${columns} to populated table "${model.tableName}": the schema declares no default value, so existing rows have no value to backfill. Add the column as nullable, backfill every row, then make it NOT NULL.`,
  );
}
