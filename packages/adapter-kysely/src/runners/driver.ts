import type { DatabaseConnection, Dialect, Driver } from "kysely";
import { fromKysely, hasFunction, kyselyQuery, transactionRunner, type Runner } from "./runner.js";

/** One connection inside a transaction. */
const connectionRunner = (connection: DatabaseConnection): Runner =>
  transactionRunner(async (statement) => fromKysely(await connection.executeQuery(kyselyQuery(statement) as never)));

/**
 * A Kysely dialect driven directly: its driver opens on first use, each statement borrows a
 * connection (the driver serialises a single-connection database itself), and `close()`
 * destroys the driver. Only the dialect's `createDriver` is used, so no Kysely instance (and
 * none of its query builders) is built.
 */
export function dialectRunner(dialect: Dialect): Runner {
  let driver: Driver | undefined;
  let ready: Promise<Driver> | undefined;
  const open = (): Promise<Driver> =>
    (ready ??= (async () => {
      const d = dialect.createDriver();
      await d.init();
      driver = d;
      return d;
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  const withConnection = async <R>(fn: (d: Driver, c: DatabaseConnection) => Promise<R>): Promise<R> => {
    const d = await open();
    const connection = await d.acquireConnection();
    try {
      return await fn(d, connection);
    } finally {
      await d.releaseConnection(connection);
    }
  };
  return {
    run: (statement) =>
      withConnection(async (_, c) => fromKysely(await c.executeQuery(kyselyQuery(statement) as never))),
    transaction: (fn) =>
      withConnection(async (d, c) => {
        await d.beginTransaction(c, {});
        try {
          const value = await fn(connectionRunner(c));
          await d.commitTransaction(c);
          return value;
        } catch (error) {
          await d.rollbackTransaction(c);
          throw error;
        }
      }),
    isTransaction: false,
    async close() {
      if (!driver) return;
      const d = driver;
      driver = undefined;
      ready = undefined;
      await d.destroy();
    },
  };
}

/** Whether `value` is a Kysely dialect (it makes a driver and a dialect adapter). */
export const isDialect = (value: object): value is Dialect => hasFunction(value, "createDriver", "createAdapter");
