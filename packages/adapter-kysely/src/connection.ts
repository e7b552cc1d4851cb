import { Kysely, type Dialect } from "kysely";
import type { Connection, DatabaseType, DynamicDB } from "./dialect.js";

// Nothing here imports one of Kysely's own dialects as a value: an entry that accepts only a
// Kysely instance or a dialect (the per-dialect entries, `./sqlite` and so on) bundles none of
// them, nor the query compiler and introspector they bring.

/** Whether `value` has a function under every one of `names`. */
export const hasFunction = (value: object, ...names: string[]): boolean =>
  names.every((name) => typeof (value as Record<string, unknown>)[name] === "function");

const isKysely = (value: object): value is Kysely<DynamicDB> =>
  hasFunction(value, "selectFrom", "getExecutor", "transaction");

/** Whether `value` is a Kysely dialect (it makes a driver and a dialect adapter). */
export const isDialect = (value: object): value is Dialect =>
  hasFunction(value, "createDriver", "createAdapter");

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
export function typeOfAdapter(adapter: object): DatabaseType | null {
  const names = classNames(adapter);
  if (names.includes("SqliteAdapter")) return "sqlite";
  if (names.includes("PostgresAdapter")) return "postgres";
  if (names.includes("MysqlAdapter")) return "mysql";
  return null;
}

/**
 * Resolves a Kysely instance or a Kysely dialect to a connection, or `null` when `input` is
 * neither. `type` wins over detection; `label` names the caller in error messages.
 */
export function connectKysely(
  input: object,
  type: DatabaseType | undefined,
  label: string,
): Connection | null {
  if (isKysely(input)) {
    const detected = type ?? typeOfAdapter(input.getExecutor().adapter);
    if (!detected) {
      throw new TypeError(
        `${label}: cannot tell the database type of this Kysely instance; pass { type: "sqlite" | "postgres" | "mysql" }.`,
      );
    }
    return { db: input, type: detected, owned: false };
  }
  if (isDialect(input)) {
    const detected = type ?? typeOfAdapter(input.createAdapter());
    if (!detected) {
      throw new TypeError(
        `${label}: cannot tell the database type of this Kysely dialect; pass { type: "sqlite" | "postgres" | "mysql" }.`,
      );
    }
    return { db: new Kysely<DynamicDB>({ dialect: input }), type: detected, owned: true };
  }
  return null;
}

/**
 * The connection of a per-dialect entry: a Kysely instance or dialect of that database type.
 * A value whose dialect adapter plainly belongs to another database is a configuration error.
 */
export function connectAs(input: object, type: DatabaseType): Connection {
  const label = `kyselyAdapter (@latchkey/adapter-kysely/${type})`;
  const adapter = isKysely(input)
    ? input.getExecutor().adapter
    : isDialect(input)
      ? input.createAdapter()
      : null;
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
