import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreSchema, createLogger, resolveSchema } from "@latchkey/core";
import { kyselyAdapter, type KyselyAdapter } from "../src/index.js";
import { freshPostgres } from "./support/databases.js";

const schema = resolveSchema([{ owner: "core", schema: coreSchema }]);
const logger = createLogger({ disabled: true });

describe("PostgreSQL: the session read as a named prepared statement", () => {
  let store: Awaited<ReturnType<typeof freshPostgres>>;
  let adapter: KyselyAdapter;
  let token: string;

  beforeAll(async () => {
    store = await freshPostgres();
    adapter = kyselyAdapter(store.pool)({ schema, logger });
    await adapter.createTables?.();
    const now = new Date();
    await adapter.create({
      model: "user",
      data: {
        id: "u1",
        name: "U",
        email: "u1@example.com",
        emailVerified: false,
        createdAt: now,
        updatedAt: now,
      },
    });
    token = "prepared-token";
    await adapter.create({
      model: "session",
      data: {
        id: "s1",
        token,
        userId: "u1",
        expiresAt: new Date(now.getTime() + 60_000),
        createdAt: now,
        updatedAt: now,
      },
    });
  });
  afterAll(async () => {
    await adapter.close?.();
    await store.drop();
  });

  /** The statements prepared on each connection of a pool, read on every connection it holds. */
  const preparedOn = async (pool: typeof store.pool): Promise<string[]> => {
    const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
    try {
      const names = await Promise.all(
        clients.map(
          async (c) => (await c.query<{ name: string }>("SELECT name FROM pg_prepared_statements")).rows,
        ),
      );
      return names.flat().map((r) => r.name);
    } finally {
      for (const c of clients) c.release();
    }
  };

  it("prepares it on a raw pg Pool and answers the same rows every time", async () => {
    const first = await adapter.findSessionWithUser?.(token);
    const again = await adapter.findSessionWithUser?.(token);
    expect(first?.session).toMatchObject({ id: "s1", userId: "u1" });
    expect(again).toEqual(first);
    expect(await preparedOn(store.pool)).toContain("latchkey_1");
    expect(await adapter.findSessionWithUser?.("missing")).toBeNull();
  });

  it("sends it unnamed with preparedStatements: false", async () => {
    const other = await freshPostgres();
    const plain = kyselyAdapter(other.pool, { preparedStatements: false })({ schema, logger });
    try {
      await plain.createTables?.();
      expect(await plain.findSessionWithUser?.(token)).toBeNull();
      expect(await preparedOn(other.pool)).toEqual([]);
    } finally {
      await plain.close?.();
      await other.drop();
    }
  });

  it("behind a transaction pooler that loses the statement (26000), it answers and stops naming statements", async () => {
    const other = await freshPostgres();
    // One connection, so the statement is prepared on the very connection the test disturbs.
    const pool = new (store.pool.constructor as new (config: object) => typeof store.pool)({
      ...other.pool.options,
      max: 1,
    });
    const pooled = kyselyAdapter(pool)({ schema, logger });
    try {
      await pooled.createTables?.();
      expect(await pooled.findSessionWithUser?.(token)).toBeNull();
      expect(await preparedOn(pool)).toEqual(["latchkey_1"]);
      // What a pooler does when it hands the client another server connection: the name is
      // gone there, while the client library still believes it prepared.
      const client = await pool.connect();
      await client.query("DEALLOCATE ALL");
      client.release();
      expect(await pooled.findSessionWithUser?.(token)).toBeNull();
      expect(await pooled.findSessionWithUser?.(token)).toBeNull();
      expect(await preparedOn(pool)).toEqual([]);
    } finally {
      await pooled.close?.();
      await other.drop();
    }
  });

  it("two adapters over one pool with different schemas never share a statement name", async () => {
    const renamed = resolveSchema([{ owner: "core", schema: coreSchema }], {
      session: { modelName: "lk_prepared_sessions" },
      user: { modelName: "lk_prepared_users" },
    });
    const second = kyselyAdapter(store.pool)({ schema: renamed, logger });
    await second.createTables?.();
    expect(await second.findSessionWithUser?.(token)).toBeNull();
    expect(await adapter.findSessionWithUser?.(token)).toMatchObject({ session: { id: "s1" } });
    expect(await second.findSessionWithUser?.(token)).toBeNull();
  });
});
