import type { Auth } from "@latchkey/core";

/**
 * The number of rows in every table the instance uses (core's, its plugins' and extra
 * fields' models), read through the instance's own adapter, so it works on memory, SQLite,
 * PostgreSQL and MariaDB alike. Compare two snapshots to prove a request wrote nothing.
 */
export async function rowCounts(auth: Auth, ignore: readonly string[] = []): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const model of Object.keys(auth.$context.schema).sort()) {
    if (ignore.includes(model)) continue;
    counts[model] = await auth.$context.adapter.count({ model });
  }
  return counts;
}
