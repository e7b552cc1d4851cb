import type { Adapter, AdapterInit } from "@latchkey/core";
import type { Kysely } from "kysely";
import type { Connection, DB, DatabaseType } from "./dialect.js";
import { planMigrations } from "./ddl.js";
import { createScope, inTransaction, type Executor } from "./executor.js";
import { dataOperations } from "./kysely-adapter.js";
import { findSchemaProblems } from "./schema-check.js";

/** Options of `kyselyAdapter`. */
export interface KyselyAdapterOptions {
  /** SQL dialect. @default detected from the Kysely dialect or the driver */
  type?: DatabaseType;
  /**
   * With a raw `pg` Pool: send the session read every authenticated request makes as a named
   * prepared statement, which PostgreSQL parses and plans once per connection instead of on
   * every request. Behind a connection pooler in transaction mode that does not support
   * prepared statements (PgBouncer before 1.21, or with `max_prepared_statements = 0`) the
   * first refusal is retried unnamed and the pool stops naming statements; `false` never names
   * them. Kysely instances and dialects are used as given. @default true
   */
  preparedStatements?: boolean;
}

/** A Latchkey adapter plus the Kysely instance behind it. */
export interface KyselyAdapter extends Adapter {
  readonly db: Kysely<unknown>;
  readonly type: DatabaseType;
}

/** What `kyselyAdapter` returns: an `AdapterFactory` whose adapters expose `db` and `type`. */
export type KyselyAdapterFactory = (init: AdapterInit) => KyselyAdapter;

/** The adapter factory over a resolved connection; every entry point's `kyselyAdapter` ends here. */
export function createKyselyAdapter(connection: Connection): KyselyAdapterFactory {
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
      prepared: connection.prepared,
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
