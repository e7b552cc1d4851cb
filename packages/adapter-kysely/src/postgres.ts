// Entry `@latchkey/adapter-kysely/postgres`: the adapter for a PostgreSQL Kysely instance or dialect the
// application builds itself. It wraps no raw driver, so none of Kysely's built-in dialects (nor
// the query compiler and introspector each brings) is bundled with it.
import type { Dialect, Kysely } from "kysely";
import { connectAs } from "./connect.js";
import { createKyselyAdapter, type KyselyAdapterFactory } from "./create-adapter.js";

export type { KyselyAdapter, KyselyAdapterFactory } from "./create-adapter.js";

/**
 * The Kysely adapter on PostgreSQL, from a Kysely instance (left open on `close()`) or a Kysely
 * dialect (its driver destroyed on `close()`); same tables and encodings as the main entry.
 *
 * @example
 * import { Kysely, PostgresDialect } from "kysely";
 * const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
 * const auth = createAuth({ database: kyselyAdapter(db), secret, baseURL });
 */
export function kyselyAdapter<T>(db: Kysely<T> | Dialect): KyselyAdapterFactory {
  return createKyselyAdapter(connectAs(db, "postgres"));
}
