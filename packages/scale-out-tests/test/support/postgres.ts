import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server's `test` database: where new databases are created from. */
export const ADMIN_URL = process.env.SCALE_OUT_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A database made for one cluster, and how to remove it. */
export interface FreshDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates `lk_scale_<random>` on the server of `ADMIN_URL`. */
export async function createDatabase(): Promise<FreshDatabase> {
  const name = `lk_scale_${randomBytes(6).toString("hex")}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE ends connections a killed node may have left behind (PostgreSQL 13+).
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
