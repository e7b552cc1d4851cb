import type { Kysely } from "kysely";
import { countOf, kyselyQuery, type QueryResult, type Runner } from "./runner.js";

type AnyKysely = Kysely<Record<string, Record<string, unknown>>>;


/** A caller's Kysely instance (or one of its transactions); never destroyed by `close()`. */
export function kyselyRunner(db: AnyKysely): Runner {
  return {
    async run(statement): Promise<QueryResult> {
      const result = await db.executeQuery(kyselyQuery(statement) as never);
      return { rows: result.rows as QueryResult["rows"], affected: countOf(result.numAffectedRows) };
    },
    transaction: (fn) =>
      db.isTransaction ? fn(kyselyRunner(db)) : db.transaction().execute((trx) => fn(kyselyRunner(trx))),
    isTransaction: db.isTransaction,
    close: async () => {},
  };
}

/** Whether `value` is a Kysely instance. */
export const isKysely = (value: object): value is AnyKysely =>
  ["selectFrom", "getExecutor", "transaction", "executeQuery"].every(
    (name) => typeof (value as Record<string, unknown>)[name] === "function",
  );
