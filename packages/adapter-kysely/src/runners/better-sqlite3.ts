import type { Row } from "@latchkey/core";
import { hasFunction, transactionRunner, type QueryResult, type Runner } from "./runner.js";

/** The part of a better-sqlite3 `Database` the adapter uses. */
interface SqliteStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): { changes: number | bigint };
  raw(toggle: boolean): SqliteStatement;
  columns(): Array<{ name: string }>;
}

/**
 * A prepared statement; one that returns rows reads them as arrays, named by `names`, the
 * statement's columns as SQLite prepared it for schema version `version`.
 */
interface Prepared {
  statement: SqliteStatement;
  /** True when the text selects `*`: its columns follow the schema, so `names` carries `version`. */
  starred: boolean;
  names?: string[] | undefined;
  version?: unknown;
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** Prepared statements kept per database; an auth server runs a few dozen distinct texts. */
const LIMIT = 256;

/**
 * A better-sqlite3 `Database`, run synchronously: each text is prepared once and kept (compiling
 * it again on every query cost more than running it), statements that return rows are read with
 * `all`, others `run`. The one connection is shared, so a transaction holds it: statements from
 * outside wait until it ends instead of landing inside it. `close()` closes the database.
 */
export function betterSqlite3Runner(database: SqliteDatabase): Runner {
  const statements = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    let prepared = statements.get(sql);
    if (!prepared) {
      // Crude bound: start over rather than track recency; the working set is small.
      if (statements.size >= LIMIT) statements.clear();
      const statement = database.prepare(sql);
      // Rows as arrays, made into objects here: better-sqlite3 builds each row object key by
      // key in C++, which cost ~40% more than this on pages of 100 rows.
      prepared = { statement: statement.reader ? statement.raw(true) : statement, starred: selectsStar(sql) };
      statements.set(sql, prepared);
    }
    return prepared;
  };
  // SQLite prepares a statement again when the schema changed since it was prepared (a column
  // added, dropped or renamed, by this connection or another), and `SELECT *` then has other
  // columns. Asking better-sqlite3 for a statement's columns builds an object per column (about
  // a quarter of a get-session request), so the names are kept with the schema version they
  // belong to (read before and after the run that takes them), and a later run whose version
  // is still that one used the same columns. A text that names its columns gets the same names
  // under any schema (or fails), so its names are kept without a version.
  const version = database.prepare("PRAGMA schema_version").raw(true);
  const schemaVersion = (): unknown => (version.all([]) as unknown[][])[0]?.[0];
  const execute = (sql: string, parameters: readonly unknown[]): QueryResult => {
    const prepared = prepare(sql);
    const { statement } = prepared;
    if (!statement.reader) return { rows: [], affected: Number(statement.run(parameters).changes) };
    if (!prepared.starred) {
      const values = statement.all(parameters) as unknown[][];
      if (values.length === 0) return { rows: [], affected: 0 };
      const names = (prepared.names ??= statement.columns().map((c) => c.name));
      return { rows: values.map((row) => namedRow(names, row)), affected: 0 };
    }
    // Kept names need one read, after the run: the version only grows, so the one they were
    // taken under means no change since, the run included. Taking them needs a read before too.
    const kept = prepared.names;
    const before = kept ? undefined : schemaVersion();
    const values = statement.all(parameters) as unknown[][];
    if (values.length === 0) return { rows: [], affected: 0 };
    const after = schemaVersion();
    let names = kept;
    if (!names || prepared.version !== after) {
      names = statement.columns().map((c) => c.name);
      // Kept only when nothing changed around this run; otherwise the next run takes them again.
      prepared.names = before === after ? names : undefined;
      prepared.version = after;
    }
    return { rows: values.map((row) => namedRow(names, row)), affected: 0 };
  };
  // The open transaction, if any: others wait on it.
  let held: Promise<void> | null = null;
  const inside = transactionRunner(async ({ sql, parameters }) => execute(sql, parameters));
  return {
    async run({ sql, parameters }) {
      while (held) await held;
      return execute(sql, parameters);
    },
    async transaction(fn) {
      while (held) await held;
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      try {
        execute("begin", []);
        try {
          const value = await fn(inside);
          execute("commit", []);
          return value;
        } catch (error) {
          execute("rollback", []);
          throw error;
        }
      } finally {
        held = null;
        release();
      }
    },
    isTransaction: false,
    close: async () => database.close(),
  };
}

/** True when `sql` may select `*` (any star but `COUNT(*)`'s): its result columns follow the schema. */
const selectsStar = (sql: string): boolean => sql.replaceAll("COUNT(*)", "").includes("*");

/** One row read as an array, keyed by its column names (a later duplicate name wins, as in better-sqlite3). */
function namedRow(names: string[], values: unknown[]): Row {
  const row: Row = {};
  for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
  return row;
}

/** A better-sqlite3 `Database`: `prepare` plus its own `pragma`/`aggregate` helpers. */
export const isBetterSqlite3 = (value: object): value is SqliteDatabase =>
  hasFunction(value, "prepare", "close") && (hasFunction(value, "pragma") || hasFunction(value, "aggregate"));
