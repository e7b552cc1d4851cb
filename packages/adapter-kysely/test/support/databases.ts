// The fresh-database helpers live in the shared test kit; this file keeps the old import path.
export { freshMysql, freshPostgres, freshSqlite } from "@latchkey/test-support";
