import type { Adapter, FindPageArgs, Page, PageJoin, Row } from "./adapter.js";

/**
 * A page of `args.model`'s rows matching `where`, each with the rows `join` names, and the
 * number of rows `where` matches in all (the `{ rows, total }` of a listing route). Uses the
 * adapter's `findPage` when it has one; otherwise `findMany` and `count` side by side, then
 * `joinRows`.
 */
export async function findPage<T extends Row = Row>(adapter: Adapter, args: FindPageArgs): Promise<Page<T>> {
  if (adapter.findPage) return adapter.findPage<T>(args);
  const { join, ...many } = args;
  const [rows, total] = await Promise.all([
    adapter.findMany<T>(many),
    adapter.count({ model: args.model, ...(args.where ? { where: args.where } : {}) }),
  ]);
  return { rows: join ? await joinRows<T>(adapter, rows, join) : rows, total };
}

/**
 * Copies of `rows`, each with the rows `join` names under their model's name (`null` where the
 * field is empty or names no row): one `in` read per joined model.
 */
export async function joinRows<T extends Row = Row>(adapter: Adapter, rows: Row[], join: Record<string, PageJoin>): Promise<T[]> {
  if (rows.length === 0) return [];
  const joined = await Promise.all(
    Object.entries(join).map(async ([model, { field, select }]) => {
      const ids = [...new Set(rows.map((row) => row[field]).filter((value) => value !== null && value !== undefined))] as string[];
      const found = ids.length
        ? await adapter.findMany({ model, where: [{ field: "id", value: ids, operator: "in" }], limit: ids.length, ...(select ? { select } : {}) })
        : [];
      return [model, field, new Map(found.map((row) => [row.id, row]))] as const;
    }),
  );
  return rows.map((row) => {
    const copy: Row = { ...row };
    for (const [model, field, byId] of joined) copy[model] = byId.get(row[field]) ?? null;
    return copy as T;
  });
}
