import type { Dialect, Kysely } from "kysely";
import type { DatabaseType } from "./database-type.js";
import { betterSqlite3Runner, isBetterSqlite3 } from "./runners/better-sqlite3.js";
import { d1Runner, isD1 } from "./runners/d1.js";
import { dialectRunner, isDialect } from "./runners/driver.js";
import { isKysely, kyselyRunner } from "./runners/kysely.js";
import { isMysql2Pool, mysql2Runner } from "./runners/mysql2.js";
import { isPgPool, pgRunner } from "./runners/pg.js";
import type { Runner } from "./runners/runner.js";

// Nothing here imports Kysely as a value: Kysely instances and dialects are recognised by their
// methods, and raw drivers are run directly, so no entry bundles Kysely's builders, compilers,
// introspectors or dialects.

/**
 * What `kyselyAdapter` accepts: a Kysely instance, a Kysely dialect, or a raw driver handle
 * (a better-sqlite3 `Database`, a Cloudflare D1 binding, a `pg` `Pool`, a `mysql2` pool,
 * callback or promise flavour).
 */
export type DatabaseInput<T = unknown> = Kysely<T> | Dialect | object;

/** The adapter's way to its database, the dialect it speaks, and the caller's Kysely instance if any. */
export interface Connection {
  runner: Runner;
  type: DatabaseType;
  kysely?: Kysely<unknown>;
}

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

/** The database type a Kysely dialect adapter speaks, from its class names; `null` when unknown. */
function typeOfAdapter(adapter: object): DatabaseType | null {
  const names = classNames(adapter);
  if (names.includes("SqliteAdapter")) return "sqlite";
  if (names.includes("PostgresAdapter")) return "postgres";
  if (names.includes("MysqlAdapter")) return "mysql";
  return null;
}

/** The dialect adapter of a Kysely instance or dialect; `null` for anything else. */
const kyselyAdapterOf = (input: object): object | null =>
  isKysely(input) ? input.getExecutor().adapter : isDialect(input) ? input.createAdapter() : null;

/**
 * Resolves a Kysely instance or a Kysely dialect to a connection, or `null` when `input` is
 * neither. `type` wins over detection; `label` names the caller in error messages.
 */
function connectKysely(input: object, type: DatabaseType | undefined, label: string): Connection | null {
  const adapter = kyselyAdapterOf(input);
  if (!adapter) return null;
  const detected = type ?? typeOfAdapter(adapter);
  const what = isKysely(input) ? "instance" : "dialect";
  if (!detected) {
    throw new TypeError(
      `${label}: cannot tell the database type of this Kysely ${what}; pass { type: "sqlite" | "postgres" | "mysql" }.`,
    );
  }
  return isKysely(input)
    ? { runner: kyselyRunner(input), type: detected, kysely: input as Kysely<unknown> }
    : { runner: dialectRunner(input as Dialect), type: detected };
}

/**
 * The connection of a per-dialect entry: a Kysely instance or dialect of that database type.
 * A value whose dialect adapter plainly belongs to another database is a configuration error.
 */
export function connectAs(input: object, type: DatabaseType): Connection {
  const label = `kyselyAdapter (@latchkey/adapter-kysely/${type})`;
  const adapter = kyselyAdapterOf(input);
  const detected = adapter ? typeOfAdapter(adapter) : null;
  if (detected && detected !== type) {
    throw new TypeError(
      `${label}: this Kysely ${isDialect(input) ? "dialect" : "instance"} speaks ${detected}, not ${type}.`,
    );
  }
  const connection = connectKysely(input, type, label);
  if (!connection) {
    throw new TypeError(
      `${label}: expected a Kysely instance or a Kysely dialect; raw drivers are accepted by "@latchkey/adapter-kysely".`,
    );
  }
  return connection;
}

/** A raw driver handle run directly; `null` when it is none of them. */
function connectDriver(input: object, prepare: boolean): Connection | null {
  if (isBetterSqlite3(input)) return { runner: betterSqlite3Runner(input), type: "sqlite" };
  if (isD1(input)) return { runner: d1Runner(input), type: "sqlite" };
  if (isMysql2Pool(input)) return { runner: mysql2Runner(input), type: "mysql" };
  if (isPgPool(input)) return { runner: pgRunner(input, prepare), type: "postgres" };
  return null;
}

/** Resolves the adapter's input to a connection and its dialect. */
export function connect(input: object, type?: DatabaseType, prepare = true): Connection {
  // A dialect of unknown type without `type` falls through to the error below, as before.
  if (!isDialect(input) || type || typeOfAdapter(input.createAdapter())) {
    const connection = connectKysely(input, type, "kyselyAdapter");
    if (connection) return connection;
  }
  const found = connectDriver(input, prepare);
  if (!found) {
    throw new TypeError(
      "kyselyAdapter: expected a Kysely instance, a Kysely dialect, a better-sqlite3 Database, a D1 binding, a pg Pool or a mysql2 pool.",
    );
  }
  return { ...found, type: type ?? found.type };
}
