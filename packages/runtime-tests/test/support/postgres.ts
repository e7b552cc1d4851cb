import { randomBytes } from "node:crypto";
import pg from "pg";

// TOOLCHAIN.md: PostgreSQL on 127.0.0.1:5432, trust auth. Unreachable means the test fails.
const SERVER = { host: "127.0.0.1", port: 5432, user: "postgres" };

/** A fresh database for one run (created from `test`), its URL, and a way to drop it. */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lk_rt_${randomBytes(6).toString("hex")}`;
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ ...SERVER, database: "test" });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  return {
    url: `postgres://${SERVER.user}@${SERVER.host}:${SERVER.port}/${name}`,
    // FORCE: the runtime that held connections has been stopped, but may not have said goodbye.
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
