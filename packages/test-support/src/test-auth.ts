import { createAuth, type Auth, type LatchkeyOptions } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { testDatabase, type DatabaseKind, type TestDatabase } from "./databases.js";

/** The origin test instances answer on unless the options give another `baseURL`. */
export const TEST_BASE_URL = "http://localhost:3000";
/** The secret test instances use unless the options give another. */
export const TEST_SECRET = "latchkey-test-kit-secret-that-is-long-enough-0123456789";

/** An auth instance on a fresh database of its own. */
export interface TestAuth {
  auth: Auth;
  database: TestDatabase;
  /** Closes the adapter's connections and removes the database. */
  close(): Promise<void>;
}

/**
 * `createAuth(options)` on `kyselyAdapter` over a fresh SQLite file, PostgreSQL or MariaDB
 * database (random name), with every table created. `secret` and `baseURL` default to test
 * values and the logger is off unless the options say otherwise.
 *
 * @example
 * const t = await testAuth({ emailAndPassword: { enabled: true } }, { db: "postgres" });
 * afterAll(() => t.close());
 */
export async function testAuth(
  options: Omit<Partial<LatchkeyOptions>, "database">,
  { db }: { db: DatabaseKind },
): Promise<TestAuth> {
  const database = await testDatabase(db);
  try {
    const auth = createAuth({
      secret: TEST_SECRET,
      baseURL: TEST_BASE_URL,
      logger: { disabled: true },
      ...options,
      database: kyselyAdapter(database.driver),
    });
    await auth.createTables();
    let closed: Promise<void> | undefined;
    const close = (): Promise<void> =>
      (closed ??= (async () => {
        await auth.$context.adapter.close?.();
        await database.drop();
      })());
    return { auth, database, close };
  } catch (error) {
    await database.close();
    throw error;
  }
}
