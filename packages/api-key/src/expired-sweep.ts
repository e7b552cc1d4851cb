import type { AuthContext } from "@latchkey/core";
import { API_KEY_TABLE_NAME } from "./schema.js";

/** At most one sweep per this many ms per instance (reference: 10 s). */
const SWEEP_EVERY = 10_000;
const lastSweep = new WeakMap<object, number>();

/** Deletes every database key whose `expiresAt` has passed; answers how many. */
export function deleteExpiredKeys(ctx: AuthContext): Promise<number> {
  lastSweep.set(ctx.adapter, Date.now());
  return ctx.adapter.deleteMany({
    model: API_KEY_TABLE_NAME,
    where: [
      { field: "expiresAt", operator: "lt", value: new Date() },
      { field: "expiresAt", operator: "ne", value: null },
    ],
  });
}

/**
 * The opportunistic sweep the routes start: in the background, at most every 10 s per
 * database, errors logged (an expired key is refused when presented whether or not it was swept).
 */
export function sweepExpiredKeys(ctx: AuthContext): void {
  const last = lastSweep.get(ctx.adapter);
  if (last !== undefined && Date.now() - last < SWEEP_EVERY) return;
  deleteExpiredKeys(ctx).catch((error: unknown) => ctx.logger.error("api-key: failed to delete expired API keys", error));
}
