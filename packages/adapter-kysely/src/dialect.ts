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
import { withStatementCache } from "./statement-cache.js";

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
}

const hasFunction = (value: object, ...names: string[]): boolean =>
  names.every((name) => typeof (value as Record<string, unknown>)[name] === "function");

const isKysely = (value: object): value is Kysely<DynamicDB> =>
  hasFunction(value, "selectFrom", "getExecutor", "transaction");

/** Names along the prototype chain, so subclasses (e.g. a D1 or libSQL adapter) still match. */
function classNames(value: object): string[] {
  const names: string[] = [];
  for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype;) {
    const ctor = (proto as { constructor?: { name?: string } }).constructor;
    if (ctor?.name) names.push(ctor.name);
    proto = Object.getPrototypeOf(proto);
  }
  return names;
}

function typeOfAdapter(adapter: object): DatabaseType | null {
  const names = classNames(adapter);
  if (names.includes("SqliteAdapter")) return "sqlite";
  if (names.includes("PostgresAdapter")) return "postgres";
  if (names.includes("MysqlAdapter")) return "mysql";
  return null;
}

/** Wraps a raw driver handle in the matching Kysely dialect; `null` when it is none of them. */
function dialectFor(input: object): { dialect: Dialect; type: DatabaseType } | null {
  if (hasFunction(input, "createDriver", "createAdapter")) {
    const dialect = input as Dialect;
    const type = typeOfAdapter(dialect.createAdapter());
    return type ? { dialect, type } : null;
  }
  // better-sqlite3: `prepare` plus its own `pragma`/`aggregate` helpers.
  if (
    hasFunction(input, "prepare", "close") &&
    (hasFunction(input, "pragma") || hasFunction(input, "aggregate"))
  ) {
    return { dialect: new SqliteDialect({ database: withStatementCache(input as SqliteDatabase) }), type: "sqlite" };
  }
  if (hasFunction(input, "getConnection")) {
    // A `mysql2/promise` pool wraps the callback pool Kysely needs in `.pool`.
    const inner = (input as { pool?: unknown }).pool;
    const pool = inner && typeof inner === "object" && hasFunction(inner, "getConnection") ? inner : input;
    return { dialect: new MysqlDialect({ pool: pool as MysqlPool }), type: "mysql" };
  }
  // pg: a Pool (a bare Client has no `totalCount` and cannot hand out connections).
  if (hasFunction(input, "connect", "end", "query") && "totalCount" in input) {
    return { dialect: new PostgresDialect({ pool: input as unknown as PostgresPool }), type: "postgres" };
  }
  return null;
}

/** Resolves the adapter's input to a Kysely instance and its dialect. */
export function connect(input: object, type?: DatabaseType): Connection {
  if (isKysely(input)) {
    const detected = type ?? typeOfAdapter(input.getExecutor().adapter);
    if (!detected) {
      throw new TypeError(
        'kyselyAdapter: cannot tell the database type of this Kysely instance; pass { type: "sqlite" | "postgres" | "mysql" }.',
      );
    }
    return { db: input, type: detected, owned: false };
  }
  const found = dialectFor(input);
  if (!found) {
    throw new TypeError(
      "kyselyAdapter: expected a Kysely instance, a Kysely dialect, a better-sqlite3 Database, a pg Pool or a mysql2 pool.",
    );
  }
  return { db: new Kysely<DynamicDB>({ dialect: found.dialect }), type: type ?? found.type, owned: true };
}
