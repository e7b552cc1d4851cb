import type { Adapter, AdapterInit, Row } from "@latchkey/core";
import type { Kysely } from "kysely";
import type { Connection } from "./connect.js";
import type { DatabaseType } from "./database-type.js";
import { planMigrations } from "./ddl.js";
import { createScope, inTransaction, type ColumnFit, type Executor } from "./executor.js";
import { dataOperations } from "./kysely-adapter.js";
import { flagColumn, flagColumns } from "./partial-index.js";
import { tableIndexes } from "./column-type.js";
import type { Runner } from "./runners/runner.js";
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

/** A Latchkey adapter, its dialect, and a way to send SQL of your own on its connection. */
export interface KyselyAdapter extends Adapter {
  /** The Kysely instance the adapter was given; `undefined` for a dialect or a raw driver. */
  readonly db: Kysely<unknown> | undefined;
  readonly type: DatabaseType;
  /**
   * Runs one SQL statement (placeholders `?`, or `$1`… on PostgreSQL) on the adapter's
   * connection, inside the open `transaction()` if there is one, and returns its rows.
   */
  query(sql: string, parameters?: readonly unknown[]): Promise<Row[]>;
}

/** What `kyselyAdapter` returns: an `AdapterFactory` whose adapters expose `db`, `type` and `query`. */
export type KyselyAdapterFactory = (init: AdapterInit) => KyselyAdapter;

/**
 * The adapter factory over a resolved connection; every entry point's `kyselyAdapter` ends here.
 * `fits` is the MySQL column-length check, passed only by the entries that can speak MySQL.
 */
export function createKyselyAdapter(connection: Connection, fits?: ColumnFit): KyselyAdapterFactory {
  const { type, runner: root } = connection;
  // Adapter calls made through the root adapter inside `transaction()` join the transaction.
  const scope = createScope<Runner>();
  let closed = false;
  const flags = type === "mysql" ? flagColumns(root) : undefined;

  return ({ schema }) => {
    const executor = (current: () => Runner): Executor => ({
      schema,
      type,
      db: current,
      prepare: root.prepare,
      ...(type === "mysql" && fits ? { fits } : {}),
      ...(flags ? { flags } : {}),
      atomically: (fn) => inTransaction(current(), type, fn),
    });

    const make = (current: () => Runner): KyselyAdapter => {
      const x = executor(current);
      const adapter: KyselyAdapter = {
        id: "kysely",
        db: connection.kysely,
        type,
        ...dataOperations(x),
        async transaction(fn) {
          const open = current();
          // Nested use joins the open transaction.
          if (open.isTransaction) return fn(adapter);
          return open.transaction((trx) => {
            const inner = make(() => trx);
            return scope ? scope.run(trx, () => fn(inner)) : fn(inner);
          });
        },
        query: async (sql, parameters = []) => (await current().run({ sql, parameters: [...parameters] })).rows,
        createTables: async () => {
          for (const statement of await planMigrations(x)) await current().run(statement);
          for (const model of Object.values(schema)) {
            if (model.disableMigration) continue;
            for (const index of tableIndexes(model)) if (index.where) flags?.created(model.tableName, flagColumn(index));
          }
        },
        findSchemaProblems: () => findSchemaProblems(x),
        async close() {
          // A caller's Kysely instance stays open (its runner's close does nothing).
          if (!closed) {
            closed = true;
            await root.close();
          }
        },
      };
      return adapter;
    };
    return make(() => scope?.get() ?? root);
  };
}
