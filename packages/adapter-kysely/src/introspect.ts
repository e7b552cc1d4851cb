import { sql, type TableMetadata } from "kysely";
import type { DB, DatabaseType } from "./dialect.js";

/** The schema PostgreSQL resolves unqualified table names to (first on the search path). */
async function currentSchema(db: DB): Promise<string> {
  const { rows } = await sql<{
    schema: string | null;
  }>`SELECT current_schema() AS ${sql.id("schema")}`.execute(db);
  return rows[0]?.schema ?? "public";
}

/** Base tables the adapter's unqualified names reach (PostgreSQL: the current schema only). */
export async function listTables(db: DB, type: DatabaseType): Promise<TableMetadata[]> {
  const tables = (await db.introspection.getTables()).filter((t) => !t.isView);
  if (type !== "postgres") return tables;
  const schema = await currentSchema(db);
  return tables.filter((t) => t.schema === schema);
}

/** Index names per table, as `table\0name` with both lower-cased (identifiers compare case-blind across dialects). */
export async function listIndexes(db: DB, type: DatabaseType): Promise<Set<string>> {
  const query =
    type === "sqlite"
      ? sql<{ t: string; i: string }>`SELECT tbl_name AS t, name AS i FROM sqlite_master WHERE type = 'index'`
      : type === "postgres"
        ? sql<{
            t: string;
            i: string;
          }>`SELECT tablename AS t, indexname AS i FROM pg_indexes WHERE schemaname = current_schema()`
        : sql<{
            t: string;
            i: string;
          }>`SELECT DISTINCT table_name AS t, index_name AS i FROM information_schema.statistics WHERE table_schema = DATABASE()`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((r) => indexKey(r.t, r.i)));
}

export const indexKey = (table: string, index: string): string =>
  `${table.toLowerCase()}\0${index.toLowerCase()}`;
