/** A statement a driver was sent, with its parameters. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/** A driver pool whose `query` takes the text (or `{ text | sql, values }`) first: pg's and mysql2's. */
export interface QueryPool {
  query: unknown;
}

/**
 * The statements sent through `pool.query` while `run` runs whose text `keep` accepts (pg and
 * mysql2 both take the text, or an object holding it, first and the values second).
 */
export async function recordQueries(pool: QueryPool, keep: (text: string) => boolean, run: () => Promise<void>): Promise<SentStatement[]> {
  const statements: SentStatement[] = [];
  const target = pool as { query: (...args: unknown[]) => unknown };
  const original = target.query.bind(pool);
  target.query = (...args: unknown[]) => {
    const [first, second] = args;
    const given = typeof first === "object" && first !== null ? (first as { text?: string; sql?: string; values?: unknown[] }) : undefined;
    const text = typeof first === "string" ? first : (given?.text ?? given?.sql);
    const values = given?.values ?? (Array.isArray(second) ? second : []);
    if (text !== undefined && keep(text)) statements.push({ text, values });
    return original(...args);
  };
  try {
    await run();
  } finally {
    target.query = original;
  }
  return statements;
}
