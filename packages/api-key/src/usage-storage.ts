import { incrementStoredCounter, type AuthContext, type SecondaryStorage } from "@latchkey/core";
import type { ResolvedConfig } from "./options.js";
import { rateLimited, rateLimitOf, refillDue, usageExceeded } from "./rate-limit.js";
import type { ApiKeyRecord } from "./record.js";
import { storeOf, writeStored } from "./secondary-keys.js";

// Secondary-storage-only mode has no row to guard, so counts go through the store's atomic
// `increment(key, ttl)` (INCR on Redis) instead of a read-modify-write of the stored key: of
// concurrent increments each sees a distinct count, so exactly the first `max` pass. (The
// reference merges counts into the stored JSON, which lets a burst through; DIVERGENCES.md.)
//
// - Rate limit: one counter per key and fixed window, `api-key:rate:<id>:<window index>`.
// - `remaining`: the stored value is the allowance of the current refill period; uses are
//   counted in `api-key:uses:<id>:<period start>`, and what is left is the difference.

const SECOND = 1000;

const usesKey = (record: ApiKeyRecord): string =>
  `api-key:uses:${record.id}:${new Date(record.lastRefillAt ?? record.createdAt).getTime()}`;

/** Seconds a use counter must live: until the key expires, else a year. */
function usesTtl(record: ApiKeyRecord): number {
  if (!record.expiresAt) return 365 * 86_400;
  return Math.max(Math.ceil((new Date(record.expiresAt).getTime() - Date.now()) / SECOND), 1);
}

/** Uses counted so far in the key's current period. */
async function usesSoFar(storage: SecondaryStorage, record: ApiKeyRecord): Promise<number> {
  const raw = await storage.get(usesKey(record));
  const n = Number(raw ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** The key with `remaining` as what is left of the stored allowance (storage-only mode). */
export async function withRemainingLeft(ctx: AuthContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<ApiKeyRecord> {
  const storage = storeOf(ctx, config);
  if (!storage || record.remaining === null) return record;
  return { ...record, remaining: Math.max(record.remaining - (await usesSoFar(storage, record)), 0) };
}

/** Starts a new use period (after `remaining` was set by an update): the old counter is dropped. */
export async function resetUses(ctx: AuthContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<void> {
  await storeOf(ctx, config)?.delete(usesKey(record));
}

async function takeRateLimitSlot(ctx: AuthContext, storage: SecondaryStorage, config: ResolvedConfig, record: ApiKeyRecord): Promise<void> {
  const limit = rateLimitOf(record, config.rateLimit.enabled);
  if (!limit) return;
  const now = Date.now();
  const index = Math.floor(now / limit.window);
  const ttl = Math.max(Math.ceil(limit.window / SECOND), 1);
  const count = await incrementStoredCounter(storage, `api-key:rate:${record.id}:${index}`, ttl, ctx.logger);
  if (count > limit.max) throw rateLimited((index + 1) * limit.window - now);
}

/**
 * The key in its current refill period. Periods are aligned on the previous start, so every
 * request that finds a refill due computes the same new period (and its use counter) without
 * waiting for any write; the first one (the first increment of the period's marker) stores it.
 */
async function refilled(ctx: AuthContext, storage: SecondaryStorage, config: ResolvedConfig, record: ApiKeyRecord, now: number): Promise<ApiKeyRecord> {
  const anchor = new Date(record.lastRefillAt ?? record.createdAt).getTime();
  const interval = record.refillInterval!;
  const start = anchor + Math.floor((now - anchor) / interval) * interval;
  const next = { ...record, remaining: record.refillAmount, lastRefillAt: new Date(start) };
  const marker = `api-key:refill:${record.id}:${start}`;
  if ((await incrementStoredCounter(storage, marker, usesTtl(record), ctx.logger)) === 1) {
    await writeStored(storage, { ...next, updatedAt: new Date(now) }, config);
  }
  return next;
}

/**
 * Counts one use of a key kept only in secondary storage: rate-limit slot, then a use of
 * `remaining`. Answers the key with `remaining` as what is left.
 */
export async function claimUsageInStorage(ctx: AuthContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<ApiKeyRecord> {
  const storage = storeOf(ctx, config);
  if (!storage) return record;
  await takeRateLimitSlot(ctx, storage, config, record);
  const now = new Date();
  let current = record;
  if (current.remaining !== null) {
    if (refillDue(current, now.getTime())) current = await refilled(ctx, storage, config, current, now.getTime());
    const used = await incrementStoredCounter(storage, usesKey(current), usesTtl(current), ctx.logger);
    if (used > (current.remaining ?? 0)) throw usageExceeded();
    current = { ...current, remaining: current.remaining! - used };
  }
  return { ...current, lastRequest: now, updatedAt: now };
}
