import type { ResolvedModel, Where } from "@latchkey/core";
import { tableIndexes, type PhysicalIndex } from "./column-type.js";
import type { Runner } from "./runners/runner.js";

/**
 * Partial indexes (core's `ModelIndex.where`) per dialect:
 * - PostgreSQL: `CREATE INDEX … WHERE col LIKE '%v%'`; its planner matches the bound pattern.
 * - SQLite: the same index, but its planner matches only a literal pattern, so the where-clause
 *   that is an index's predicate inlines it (a fixed text the plugin declared, never input).
 * - MySQL/MariaDB have no partial indexes: an invisible virtual column holds the predicate
 *   (`<index>_rows`, 1 or 0) and the index is on it. `SELECT *` and INSERTs without a column
 *   list never see an invisible column, so the reference's reads and writes are unchanged. A
 *   query uses it only once the column is known to exist (`FlagColumns`).
 */

/** The physical partial index whose predicate a `contains` clause on `field` is, if any. */
export function partialIndexFor(model: ResolvedModel, where: Where): PhysicalIndex | undefined {
  if (!model.indexes?.some((i) => i.where)) return undefined;
  const value = String(where.value);
  const declared = model.indexes.findIndex((i) => i.where?.field === where.field && i.where.value === value);
  return declared === -1 ? undefined : tableIndexes(model)[declared];
}

/** MySQL's column holding an index's predicate; within MySQL's 64-character identifier limit. */
export const flagColumn = (index: PhysicalIndex): string => `${index.name.slice(0, 59)}_rows`;

/** Which predicate columns exist (MySQL), learned from the catalog once per table and column. */
export interface FlagColumns {
  /** Whether the column is known to exist; an unknown one is looked up in the background. */
  has(table: string, column: string): boolean;
  /** Records a column the adapter's own migration just added. */
  created(table: string, column: string): void;
}

/** An absent column is looked up again after this long (a migration run by another process). */
const RECHECK_ABSENT_MS = 60_000;

const EXISTS = `SELECT 1 AS present FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? AND COLUMN_NAME = ?`;

/**
 * The catalog lookups run on `root`, outside any transaction and without being awaited: the
 * query that asked compiles without the column (reading the rows it would have skipped), and
 * the next ones use it. A failed lookup counts as absent.
 */
export function flagColumns(root: Runner): FlagColumns {
  const known = new Map<string, { present: boolean; at: number }>();
  const pending = new Set<string>();
  const key = (table: string, column: string): string => `${table}\0${column}`;
  return {
    has(table, column) {
      const k = key(table, column);
      const state = known.get(k);
      if (state?.present) return true;
      if ((state && Date.now() - state.at < RECHECK_ABSENT_MS) || pending.has(k)) return false;
      pending.add(k);
      const dot = table.indexOf(".");
      const parameters = dot === -1 ? [null, table, column] : [table.slice(0, dot), table.slice(dot + 1), column];
      root.run({ sql: EXISTS, parameters }).then(
        ({ rows }) => known.set(k, { present: rows.length > 0, at: Date.now() }),
        () => known.set(k, { present: false, at: Date.now() }),
      ).finally(() => pending.delete(k));
      return false;
    },
    created(table, column) {
      known.set(key(table, column), { present: true, at: Date.now() });
    },
  };
}
