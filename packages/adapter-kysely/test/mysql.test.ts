import { runAdapterConformance } from "@latchkey/adapter-tests";
import { Kysely, MysqlDialect, sql } from "kysely";
import { kyselyAdapter } from "../src/index.js";
import { freshMysql } from "./support/databases.js";

runAdapterConformance("kysely mysql", async () => {
  const { pool, drop } = await freshMysql();
  // A Kysely instance the caller owns: the dialect is detected from it, and close() leaves it open.
  const db = new Kysely<Record<string, never>>({ dialect: new MysqlDialect({ pool }) });
  return {
    factory: kyselyAdapter(db),
    async teardown() {
      await db.destroy();
      await drop();
    },
    async dropTable(table) {
      await sql`DROP TABLE ${sql.table(table)}`.execute(db);
    },
    async dropColumn(table, column) {
      await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN ${sql.id(column)}`.execute(db);
    },
  };
});
