import type { Adapter, AdapterInit } from "@latchkey/core";
import type { Kysely } from "kysely";
import { connect, type DB, type DatabaseInput, type DatabaseType } from "./dialect.js";
import { planMigrations } from "./ddl.js";
import { createScope, inTransaction, type Executor } from "./executor.js";
import { dataOperations } from "./kysely-adapter.js";
import { findSchemaProblems } from "./schema-check.js";

export type { DatabaseInput, DatabaseType } from "./dialect.js";

/** Options of `kyselyAdapter`. */
export interface KyselyAdapterOptions {
  /** SQL dialect. @default detected from the Kysely dialect or the driver */
  type?: DatabaseType;
}

/** A Latchkey adapter plus the Kysely instance behind it. */
export interface KyselyAdapter extends Adapter {
  readonly db: Kysely<unknown>;
  readonly type: DatabaseType;
}

/** What `kyselyAdapter` returns: an `AdapterFactory` whose adapters expose `db` and `type`. */
export type KyselyAdapterFactory = (init: AdapterInit) => KyselyAdapter;

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
  const connection = connect(db, options.type);
  const { type } = connection;
  const root = connection.db;
  // Adapter calls made through the root adapter inside `transaction()` join the transaction.
  const scope = createScope<DB>();
  let closed = false;

  return ({ schema }) => {
    const executor = (current: () => DB): Executor => ({
      schema,
      type,
      db: current,
      atomically: (fn) => inTransaction(current(), type, fn),
    });

    const make = (current: () => DB): KyselyAdapter => {
      const adapter: KyselyAdapter = {
        id: "kysely",
        db: root as Kysely<unknown>,
        type,
        ...dataOperations(executor(current)),
        async transaction(fn) {
          const open = current();
          // Nested use joins the open transaction (Kysely has no nested transactions).
          if (open.isTransaction) return fn(adapter);
          return open.transaction().execute((trx) => {
            const inner = make(() => trx);
            return scope ? scope.run(trx, () => fn(inner)) : fn(inner);
          });
        },
        createTables: async () => {
          for (const statement of await planMigrations(current(), type, schema)) await statement.execute();
        },
        findSchemaProblems: () => findSchemaProblems(current(), type, schema),
        async close() {
          // Only an instance built here from a raw driver is ours to destroy.
          if (connection.owned && !closed) {
            closed = true;
            await root.destroy();
          }
        },
      };
      return adapter;
    };
    return make(() => scope?.get() ?? root);
  };
}
