import { connect, type DatabaseInput } from "./connect.js";
import {
  createKyselyAdapter,
  type KyselyAdapterFactory,
  type KyselyAdapterOptions,
} from "./create-adapter.js";
import { assertFitsMysql } from "./mysql-capacity.js";

export type { DatabaseInput } from "./connect.js";
export type { DatabaseType } from "./database-type.js";
export type { KyselyAdapter, KyselyAdapterFactory, KyselyAdapterOptions } from "./create-adapter.js";

/**
 * The Kysely adapter: SQLite, PostgreSQL and MySQL/MariaDB, storage-compatible with the
 * reference's Kysely adapter. `db` is a Kysely instance, a Kysely dialect, or a raw driver
 * (`new Database("auth.db")` from better-sqlite3, a `pg` Pool, a `mysql2` pool).
 *
 * @example
 * import Database from "better-sqlite3";
 * const auth = createAuth({ database: kyselyAdapter(new Database("auth.db")), secret, baseURL });
 */
export function kyselyAdapter(db: DatabaseInput, options: KyselyAdapterOptions = {}): KyselyAdapterFactory {
  return createKyselyAdapter(connect(db, options.type, options.preparedStatements ?? true), assertFitsMysql);
}
