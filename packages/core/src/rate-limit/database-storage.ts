import type { Adapter, Row, Where } from "../db/adapter.js";
import type { Logger } from "../logger.js";
import type { RateLimitConsumeStorage, RateLimitDecision, RateLimitRecord } from "./options.js";
import { secondsLeft } from "./window.js";

const MODEL = "rateLimit";
/** Lost races retried per request; each retry means another request made progress. */
const MAX_ATTEMPTS = 16;
/** Stale rows are deleted at most this often. */
const PRUNE_EVERY_MS = 60_000;

/** What the database store needs from the auth context. */
export interface DatabaseStorageDeps {
  adapter: Adapter;
  generateId(args: { model: string }): string | false;
  logger: Logger;
  /** Windows of the configured rules, in seconds: rows older than the longest are stale. */
  windows: number[];
  now?: () => number;
}

const ALLOW: RateLimitDecision = { allowed: true, retryAfter: null };

/** Row → record; `lastRequest` is a bigint column, which some drivers hand back as a string or bigint. */
function toRecord(row: Row | null): RateLimitRecord | null {
  if (!row) return null;
  return { key: String(row.key), count: Number(row.count), lastRequest: Number(row.lastRequest) };
}

/**
 * Counters in the `rateLimit` table, readable by the reference and shared by every node. The
 * window algorithm is the memory store's (window from the last allowed request), made atomic
 * with guarded single-row updates: an increment only lands while `count < max` inside the
 * window, and a restart only replaces the exact state it read (compare-and-set on
 * `count` and `lastRequest`). A request that loses a race re-reads and decides again.
 */
export function databaseStorage(deps: DatabaseStorageDeps): RateLimitConsumeStorage {
  const { adapter, logger } = deps;
  const now = deps.now ?? ((): number => Date.now());
  let longest = Math.max(10, ...deps.windows);
  let prunedAt = 0;
  const byKey = (key: string): Where => ({ field: "key", value: key });
  const read = async (key: string): Promise<RateLimitRecord | null> =>
    toRecord(await adapter.findOne({ model: MODEL, where: [byKey(key)] }));

  const prune = async (t: number): Promise<void> => {
    if (t - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = t;
    try {
      const cutoff = t - longest * 1000;
      await adapter.deleteMany({
        model: MODEL,
        where: [{ field: "lastRequest", operator: "lt", value: cutoff }],
      });
    } catch (error) {
      logger.error("Could not prune rate-limit rows", error);
    }
  };

  return {
    async consume(key, rule) {
      longest = Math.max(longest, rule.window);
      const windowMs = rule.window * 1000;
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const t = now();
        const row = await read(key);
        if (!row) {
          const id = deps.generateId({ model: MODEL });
          try {
            await adapter.create({
              model: MODEL,
              data: { ...(id === false ? {} : { id }), key, count: 1, lastRequest: t },
            });
            return ALLOW;
          } catch (error) {
            // A concurrent first request created the row (unique key): decide against it.
            if (!(await read(key))) throw error;
            continue;
          }
        }
        if (t - row.lastRequest >= windowMs) {
          const restarted = await adapter.incrementOne({
            model: MODEL,
            where: [
              byKey(key),
              { field: "count", value: row.count },
              { field: "lastRequest", value: row.lastRequest },
            ],
            increment: {},
            set: { count: 1, lastRequest: t },
          });
          if (!restarted) continue;
          await prune(t);
          return ALLOW;
        }
        const counted = await adapter.incrementOne({
          model: MODEL,
          where: [
            byKey(key),
            { field: "lastRequest", operator: "gt", value: t - windowMs },
            { field: "count", operator: "lt", value: rule.max },
          ],
          increment: { count: 1 },
          set: { lastRequest: t },
        });
        if (counted) return ALLOW;
        const fresh = await read(key);
        if (!fresh || now() - fresh.lastRequest >= windowMs || fresh.count < rule.max) continue;
        return { allowed: false, retryAfter: secondsLeft(fresh.lastRequest, rule.window, now()) };
      }
      // Only reachable under a storm of writers on one key: refusing is the safe answer.
      logger.warn("Rate limit: too many concurrent updates on one counter; refusing the request.");
      return { allowed: false, retryAfter: rule.window };
    },
  };
}
