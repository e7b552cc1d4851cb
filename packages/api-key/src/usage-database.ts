import type { AuthContext, Row, Where } from "@latchkey/core";
import { API_KEY_ERROR_CODES } from "./error-codes.js";
import type { ResolvedConfig } from "./options.js";
import { rateLimited, rateLimitOf, refillDue, usageExceeded } from "./rate-limit.js";
import { fromRow, type ApiKeyRecord } from "./record.js";
import { API_KEY_TABLE_NAME } from "./schema.js";

// Every step below is one conditional UPDATE whose WHERE clause is the guard (`remaining > 0`,
// `requestCount < max`, the observed `lastRefillAt`): the database applies it to the row as it
// is at that moment, so concurrent requests on any number of nodes can neither pass the limit
// nor drive `remaining` below zero. No step reads a value and writes a value derived from it.

const byId = (id: string): Where => ({ field: "id", value: id });

/** One guarded write; every write also stamps `updatedAt`, as the reference's extra update does. */
async function guarded(ctx: AuthContext, where: Where[], increment: Record<string, number>, set: Row = {}): Promise<ApiKeyRecord | null> {
  const row = await ctx.adapter.incrementOne({ model: API_KEY_TABLE_NAME, where, increment, set: { ...set, updatedAt: new Date() } });
  return row ? fromRow(row) : null;
}

/**
 * How stale `lastRequest` may get on a key without a rate limit before a use rewrites it. The
 * reference writes it (and `updatedAt`) on every use; a write per request is what bounds a
 * write-ahead database to a few hundred requests a second, and the column is only informative
 * there, so it is kept to the second (DIVERGENCES.md).
 */
const LAST_USE_RESOLUTION = 1000;

async function reread(ctx: AuthContext, id: string): Promise<ApiKeyRecord> {
  const row = await ctx.adapter.findOne({ model: API_KEY_TABLE_NAME, where: [byId(id)] });
  if (!row) throw API_KEY_ERROR_CODES.fail("INVALID_API_KEY", "UNAUTHORIZED");
  return fromRow(row);
}

/**
 * Takes one request from the key's window. Windows are fixed: `lastRequest` marks the start of
 * the current one and `requestCount` counts the requests in it. (The reference moves
 * `lastRequest` on every request, so its window restarts with each one and steady traffic
 * well under the limit is locked out; see DIVERGENCES.md.)
 */
async function takeRateLimitSlot(ctx: AuthContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<ApiKeyRecord> {
  const limit = rateLimitOf(record, config.rateLimit.enabled);
  if (!limit) {
    // Reference: a key whose limit is switched off still records the time of its last use.
    if (!config.rateLimit.enabled || record.rateLimitEnabled === false) {
      const last = record.lastRequest ? new Date(record.lastRequest).getTime() : 0;
      if (Date.now() - last < LAST_USE_RESOLUTION) return record;
      return (await guarded(ctx, [byId(record.id)], {}, { lastRequest: new Date() })) ?? record;
    }
    return record;
  }
  // Reference: the first request of a window is let through whatever the maximum, so
  // `rateLimitMax: 0` still allows one request per window; none is allowed here.
  if (limit.max <= 0) throw rateLimited(limit.window);
  let current = record;
  // Each round is decided by the database; a lost round means another request changed the row.
  for (let round = 0; round < 8; round++) {
    const now = Date.now();
    const windowStart = new Date(now - limit.window);
    const inWindow = current.lastRequest !== null && new Date(current.lastRequest).getTime() > windowStart.getTime();
    if (inWindow) {
      const counted = await guarded(
        ctx,
        [byId(record.id), { field: "lastRequest", operator: "gt", value: windowStart }, { field: "requestCount", operator: "lt", value: limit.max }],
        { requestCount: 1 },
      );
      if (counted) return counted;
    } else {
      const guard: Where = current.lastRequest === null
        ? { field: "lastRequest", value: null }
        : { field: "lastRequest", operator: "lte", value: windowStart };
      const started = await guarded(ctx, [byId(record.id), guard], {}, { requestCount: 1, lastRequest: new Date(now) });
      if (started) return started;
    }
    current = await reread(ctx, record.id);
    const since = current.lastRequest ? now - new Date(current.lastRequest).getTime() : Number.POSITIVE_INFINITY;
    if (since < limit.window && current.requestCount >= limit.max) throw rateLimited(limit.window - since);
  }
  throw rateLimited(0);
}

/** Takes one use from `remaining`, refilling first when a refill is due (one request wins the refill). */
async function takeUse(ctx: AuthContext, record: ApiKeyRecord): Promise<ApiKeyRecord> {
  const now = Date.now();
  if (refillDue(record, now)) {
    // Compare-and-set on the `lastRefillAt` this request saw: of concurrent requests exactly
    // one refills; the others fall through to the guarded decrement of the refilled value.
    const refilled = await guarded(
      ctx,
      [byId(record.id), { field: "lastRefillAt", value: record.lastRefillAt ? new Date(record.lastRefillAt) : null }],
      {},
      { remaining: record.refillAmount! - 1, lastRefillAt: new Date(now) },
    );
    if (refilled) return refilled;
  }
  const taken = await guarded(ctx, [byId(record.id), { field: "remaining", operator: "gt", value: 0 }], { remaining: -1 });
  if (!taken) throw usageExceeded();
  return taken;
}

/**
 * Counts one use of a key held in the database: the rate-limit slot first, then `remaining`,
 * so a request refused by the rate limit costs no use (the reference takes the use first).
 * Answers the row as it is afterwards (the same object when nothing had to be written).
 */
export async function claimUsageInDatabase(ctx: AuthContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<ApiKeyRecord> {
  const row = await takeRateLimitSlot(ctx, config, record);
  return row.remaining !== null ? takeUse(ctx, row) : row;
}
