import { run, type Executor } from "./executor.js";
import { raw } from "./sql.js";

// What the adapter reads of a database's catalog: base tables (no views) with their column
// names, and index names. The same tables Kysely's introspectors list, read in one query each.
const TABLE_COLUMNS = {
  // sqlite_master without SQLite's own tables, columns from pragma_table_info.
  sqlite: `SELECT m.name AS t, p.name AS c FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`,
  // The schema PostgreSQL resolves unqualified names to (first on the search path); ordinary
  // and partitioned tables; no system or dropped columns.
  postgres: `SELECT c.relname AS t, a.attname AS c FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.oid WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema() AND a.attnum > 0 AND NOT a.attisdropped`,
  mysql: `SELECT c.TABLE_NAME AS t, c.COLUMN_NAME AS c FROM information_schema.COLUMNS AS c JOIN information_schema.TABLES AS tb ON tb.TABLE_SCHEMA = c.TABLE_SCHEMA AND tb.TABLE_NAME = c.TABLE_NAME WHERE c.TABLE_SCHEMA = DATABASE() AND tb.TABLE_TYPE = 'BASE TABLE'`,
};

const INDEXES = {
  sqlite: `SELECT tbl_name AS t, name AS i FROM sqlite_master WHERE type = 'index'`,
  postgres: `SELECT tablename AS t, indexname AS i FROM pg_indexes WHERE schemaname = current_schema()`,
  mysql: `SELECT DISTINCT table_name AS t, index_name AS i FROM information_schema.statistics WHERE table_schema = DATABASE()`,
};

/** Base tables the adapter's unqualified names reach, each with its column names. */
export async function listTables(x: Executor): Promise<Map<string, Set<string>>> {
  const tables = new Map<string, Set<string>>();
  for (const row of (await run(x, raw(TABLE_COLUMNS[x.type]))).rows) {
    const name = String(row.t);
    let columns = tables.get(name);
    if (!columns) tables.set(name, (columns = new Set()));
    columns.add(String(row.c));
  }
  return tables;
}

/** Index names per table, as `table\0name` with both lower-cased (identifiers compare case-blind across dialects). */
export async function listIndexes(x: Executor): Promise<Set<string>> {
  const { rows } = await run(x, raw(INDEXES[x.type]));
  return new Set(rows.map((r) => indexKey(String(r.t), String(r.i))));
}

export const indexKey = (table: string, index: string): string =>
  `${table.toLowerCase()}\0${index.toLowerCase()}`;
