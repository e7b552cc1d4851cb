import { runAdapterConformance } from "@latchkey/adapter-tests";
import { kyselyAdapter } from "../src/index.js";
import { freshPostgres } from "./support/databases.js";

runAdapterConformance("kysely postgres", async () => {
  const { pool, drop } = await freshPostgres();
  return {
    // A raw pg Pool: the adapter wraps it in a PostgresDialect and closes it on close().
    factory: kyselyAdapter(pool),
    teardown: drop,
    async dropTable(table) {
      await pool.query(`DROP TABLE "${table}"`);
    },
    async dropColumn(table, column) {
      await pool.query(`ALTER TABLE "${table}" DROP COLUMN "${column}"`);
    },
  };
});
