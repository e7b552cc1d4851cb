import type { Adapter, AuthContext, Row } from "@latchkey/core";

/**
 * Inserts a token row with `adapter` (which may be a transaction's), the id made by the
 * instance's id generator (none when the database makes ids), as the reference's direct
 * adapter writes do for these tables.
 */
export async function insertRow<T extends object>(ctx: AuthContext, adapter: Adapter, model: string, data: Row): Promise<T> {
  const id = ctx.generateId({ model });
  const row: Row = id === false ? {} : { id };
  for (const [key, value] of Object.entries(data)) if (value !== undefined) row[key] = value;
  return (await adapter.create({ model, data: row })) as T;
}
