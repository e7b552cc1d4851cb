import type { Kysely } from "kysely";
import { fromKysely, hasFunction, kyselyQuery, type Runner } from "./runner.js";

type AnyKysely = Kysely<Record<string, Record<string, unknown>>>;

/** A caller's Kysely instance (or one of its transactions); never destroyed by `close()`. */
export function kyselyRunner(db: AnyKysely): Runner {
  return {
    run: async (statement) => fromKysely(await db.executeQuery(kyselyQuery(statement) as never)),
    transaction: (fn) =>
      db.isTransaction ? fn(kyselyRunner(db)) : db.transaction().execute((trx) => fn(kyselyRunner(trx))),
    isTransaction: db.isTransaction,
    close: async () => {},
  };
}

/** Whether `value` is a Kysely instance. */
export const isKysely = (value: object): value is AnyKysely =>
  hasFunction(value, "selectFrom", "getExecutor", "transaction", "executeQuery");
