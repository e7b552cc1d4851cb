import { capture, type Captured } from "./capture.ts";
import type { Pair } from "./instances.ts";
import type { KnownValues } from "./normalize.ts";
import {
  countDelta,
  countRows,
  restoreTables,
  snapshotTables,
  type RowCounts,
  type TableSnapshot,
} from "./tables.ts";

/** Both responses to one request, and the rows each implementation added or removed. */
export interface BothResult {
  reference: Captured;
  latchkey: Captured;
  /** Row-count change per core table caused by each side's request. */
  writes: { reference: RowCounts; latchkey: RowCounts };
  /** Every string stored before the request, for `normalizeCaptured`. */
  known: KnownValues;
}

function storedStrings(snapshot: TableSnapshot): Set<string> {
  const values = new Set<string>();
  for (const rows of Object.values(snapshot)) {
    for (const row of rows)
      for (const value of Object.values(row)) if (typeof value === "string") values.add(value);
  }
  return values;
}

/**
 * Sends clones of one request to both handlers, each from the same stored state: the tables
 * are snapshotted first and restored after each side, since both share one database file
 * (a sign-up on one side would otherwise make the other side's identical sign-up a duplicate).
 */
export async function sendBoth(pair: Pair, request: Request): Promise<BothResult> {
  const forReference = request.clone();
  const forLatchkey = request.clone();
  const snapshot = snapshotTables(pair.db);
  const before = countRows(pair.db);
  try {
    const reference = await capture(await pair.reference(forReference));
    const referenceWrites = countDelta(before, countRows(pair.db));
    restoreTables(pair.db, snapshot);
    const latchkey = await capture(await pair.latchkey(forLatchkey));
    const latchkeyWrites = countDelta(before, countRows(pair.db));
    return {
      reference,
      latchkey,
      writes: { reference: referenceWrites, latchkey: latchkeyWrites },
      known: storedStrings(snapshot),
    };
  } finally {
    restoreTables(pair.db, snapshot);
  }
}
