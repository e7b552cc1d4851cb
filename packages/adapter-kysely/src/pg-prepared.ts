import type { PostgresPool, PostgresPoolClient } from "kysely";

/** SQL texts to send as named prepared statements. */
export interface PreparedStatements {
  /** Marks `sql` (an exact text, with `$n` placeholders) to be prepared once per connection. */
  add(sql: string): void;
}

// Statement names per pool, shared by every adapter made over that pool: a name stands for one
// text on every connection, so two adapters (two schemas) never reuse a name for another text.
const registries = new WeakMap<PostgresPool, Map<string, string>>();
// Pools whose server refused a named statement: from then on every query goes unnamed.
const refused = new WeakSet<PostgresPool>();

/**
 * Whether PostgreSQL (or a pooler in front of it) refused a named statement: 26000 "prepared
 * statement does not exist" (a transaction pooler such as PgBouncer before 1.21, or with
 * `max_prepared_statements = 0`, moved the client to another server connection) or 42P05
 * "already exists" (it moved it to one that prepared the name for someone else).
 */
const isPreparedStatementRefusal = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "26000" || code === "42P05";
};

/**
 * Wraps a `pg` Pool so the texts marked with `add` run as named prepared statements: each
 * connection parses and plans them once, then only binds and executes (PostgreSQL's extended
 * protocol). Kysely sends every query unnamed, so PostgreSQL parsed and planned the session
 * read again on every request, which cost the database more CPU than executing it. Every
 * other query passes through unchanged.
 */
export function withPreparedStatements(pool: PostgresPool): {
  pool: PostgresPool;
  prepared: PreparedStatements;
} {
  let names = registries.get(pool);
  if (!names) registries.set(pool, (names = new Map()));
  const known = names;
  // One wrapper per pooled client, so Kysely keeps reusing its connection object for it.
  const wrappers = new WeakMap<PostgresPoolClient, PostgresPoolClient>();
  const wrap = (client: PostgresPoolClient): PostgresPoolClient => {
    const existing = wrappers.get(client);
    if (existing) return existing;
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const wrapper: PostgresPoolClient = {
      query: (async (text: unknown, values?: unknown[]) => {
        const name = typeof text === "string" && !refused.has(pool) ? known.get(text) : undefined;
        if (!name) return query(text, values);
        try {
          return await query({ name, text, values });
        } catch (error) {
          if (!isPreparedStatementRefusal(error)) throw error;
          // The marked statements are single reads outside transactions: running the same
          // text unnamed is safe, and the pool stops naming statements for good.
          refused.add(pool);
          return query(text, values);
        }
      }) as PostgresPoolClient["query"],
      release: () => client.release(),
    };
    wrappers.set(client, wrapper);
    return wrapper;
  };
  return {
    pool: {
      connect: async () => wrap(await pool.connect()),
      end: () => pool.end(),
    },
    prepared: {
      add(sql) {
        if (!known.has(sql)) known.set(sql, `latchkey_${known.size + 1}`);
      },
    },
  };
}
