// Entry `@latchkey/adapter-kysely/mysql`: the adapter for a MySQL/MariaDB Kysely instance or dialect the
// application builds itself. It wraps no raw driver, so none of Kysely's built-in dialects (nor
// the query compiler and introspector each brings) is bundled with it.
import type { Dialect, Kysely } from "kysely";
import { connectAs } from "./connect.js";
import { createKyselyAdapter, type KyselyAdapterFactory } from "./create-adapter.js";
import { assertFitsMysql } from "./mysql-capacity.js";

export type { KyselyAdapter, KyselyAdapterFactory } from "./create-adapter.js";

/**
 * The Kysely adapter on MySQL/MariaDB, from a Kysely instance (left open on `close()`) or a Kysely
 * dialect (its driver destroyed on `close()`); same tables and encodings as the main entry.
 *
 * @example
 * import { Kysely, MysqlDialect } from "kysely";
 * const db = new Kysely({ dialect: new MysqlDialect({ pool }) });
 * const auth = createAuth({ database: kyselyAdapter(db), secret, baseURL });
 */
export function kyselyAdapter<T>(db: Kysely<T> | Dialect): KyselyAdapterFactory {
  return createKyselyAdapter(connectAs(db, "mysql"), assertFitsMysql);
}
