import { runAdapterConformance } from "@latchkey/adapter-tests";
import { kyselyAdapter } from "../src/index.js";
import { freshSqlite } from "./support/databases.js";

runAdapterConformance("kysely sqlite", async () => {
  const { database, remove } = freshSqlite();
  return {
    // A raw better-sqlite3 Database, as a reference config passes it.
    factory: kyselyAdapter(database),
    async teardown() {
      if (database.open) database.close();
      remove();
    },
    async dropTable(table) {
      database.exec(`DROP TABLE "${table}"`);
    },
    async dropColumn(table, column) {
      database.exec(`ALTER TABLE "${table}" DROP COLUMN "${column}"`);
    },
  };
});
