import {
  Kysely,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
  type Dialect,
  type MysqlPool,
  type PostgresPool,
  type SqliteDatabase,
} from "kysely";
import { connectKysely, hasFunction, isDialect, typeOfAdapter } from "./connection.js";
import { withStatementCache } from "./statement-cache.js";
import { withPreparedStatements, type PreparedStatements } from "./pg-prepared.js";

/** SQL dialects the adapter speaks. */
export type DatabaseType = "sqlite" | "postgres" | "mysql";

/** The adapter addresses tables by runtime names, so rows are untyped records. */
export type DynamicDB = Record<string, Record<string, unknown>>;
export type DB = Kysely<DynamicDB>;

/**
 * What `kyselyAdapter` accepts: a Kysely instance, a Kysely dialect, or a raw driver handle
 * (a better-sqlite3 `Database`, a `pg` `Pool`, a `mysql2` pool, callback or promise flavour).
 */
export type DatabaseInput<T = unknown> =
  Kysely<T> | Dialect | SqliteDatabase | PostgresPool | MysqlPool | object;

/** A Kysely instance ready to use, its dialect, and whether the adapter owns it. */
export interface Connection {
  db: DB;
  type: DatabaseType;
  /** `true` when the adapter built the Kysely instance and must destroy it on `close()`. */
  owned: boolean;
  /** Named prepared statements, when the adapter wraps a raw `pg` Pool itself. */
  prepared?: PreparedStatements;
}

/** Wraps a raw driver handle in the matching Kysely dialect; `null` when it is none of them. */
function dialectFor(
  input: object,
  prepare: boolean,
): { dialect: Dialect; type: DatabaseType; prepared?: PreparedStatements } | null {
  // better-sqlite3: `prepare` plus its own `pragma`/`aggregate` helpers.
  if (
    hasFunction(input, "prepare", "close") &&
    (hasFunction(input, "pragma") || hasFunction(input, "aggregate"))
  ) {
    return {
      dialect: new SqliteDialect({ database: withStatementCache(input as SqliteDatabase) }),
      type: "sqlite",
    };
  }
  if (hasFunction(input, "getConnection")) {
    // A `mysql2/promise` pool wraps the callback pool Kysely needs in `.pool`.
    const inner = (input as { pool?: unknown }).pool;
    const pool = inner && typeof inner === "object" && hasFunction(inner, "getConnection") ? inner : input;
    return { dialect: new MysqlDialect({ pool: pool as MysqlPool }), type: "mysql" };
  }
  // pg: a Pool (a bare Client has no `totalCount` and cannot hand out connections).
  if (hasFunction(input, "connect", "end", "query") && "totalCount" in input) {
    const pool = input as unknown as PostgresPool;
    if (!prepare) return { dialect: new PostgresDialect({ pool }), type: "postgres" };
    const wrapped = withPreparedStatements(pool);
    return {
      dialect: new PostgresDialect({ pool: wrapped.pool }),
      type: "postgres",
      prepared: wrapped.prepared,
    };
  }
  return null;
}

/** Resolves the adapter's input to a Kysely instance and its dialect. */
export function connect(input: object, type?: DatabaseType, prepare = true): Connection {
  // A dialect of unknown type without `type` falls through to the error below, as before.
  if (!isDialect(input) || type || typeOfAdapter(input.createAdapter())) {
    const connection = connectKysely(input, type, "kyselyAdapter");
    if (connection) return connection;
  }
  const found = dialectFor(input, prepare);
  if (!found) {
    throw new TypeError(
      "kyselyAdapter: expected a Kysely instance, a Kysely dialect, a better-sqlite3 Database, a pg Pool or a mysql2 pool.",
    );
  }
  return {
    db: new Kysely<DynamicDB>({ dialect: found.dialect }),
    type: type ?? found.type,
    owned: true,
    prepared: found.prepared,
  };
}
