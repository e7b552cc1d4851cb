import { ttlSeconds, type AuthContext, type SecondaryStorage } from "@latchkey/core";
import type { ResolvedConfig } from "./options.js";
import { deserializeRecord, serializeRecord, type ApiKeyRecord } from "./record.js";

// The reference's key names, so a Redis shared with Better Auth nodes holds one set of keys.
/** Where a key is stored under its digest (the lookup of a presented key). */
export const byHashKey = (hash: string): string => `api-key:${hash}`;
/** Where a key is stored under its id (get, update, delete). */
export const byIdKey = (id: string): string => `api-key:by-id:${id}`;
/** The JSON list of a user's or organization's key ids (list). */
export const byReferenceKey = (referenceId: string): string => `api-key:by-ref:${referenceId}`;

/** The store a configuration uses: its `customStorage`, else the instance's secondary storage. */
export const storeOf = (ctx: AuthContext, config: ResolvedConfig): SecondaryStorage | undefined =>
  config.customStorage ?? ctx.secondaryStorage;

/** Seconds until the key expires, or undefined (no TTL) when it does not or already did. */
function ttlOf(record: ApiKeyRecord): number | undefined {
  if (!record.expiresAt) return undefined;
  const ttl = ttlSeconds(record.expiresAt);
  return ttl > 0 ? ttl : undefined;
}

/** Reads one stored key. */
export async function readStored(storage: SecondaryStorage, storageKey: string): Promise<ApiKeyRecord | null> {
  return deserializeRecord(await storage.get(storageKey));
}

/** The ids on a reference's list (a JSON array), or []. */
export async function readIdList(storage: SecondaryStorage, referenceId: string): Promise<string[]> {
  const raw = await storage.get(byReferenceKey(referenceId));
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return [];
    }
  }
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

// The id list is read, changed and written back; changes to one list within this process are
// queued so they never interleave (the reference does the same). Across processes the list is
// only authoritative in secondary-storage-only mode; with `fallbackToDatabase` it is a cache
// that every write drops.
const listQueues = new Map<string, Promise<void>>();

async function changeIdList(storage: SecondaryStorage, referenceId: string, change: (ids: string[]) => string[]): Promise<void> {
  const key = byReferenceKey(referenceId);
  const run = async (): Promise<void> => {
    const next = change(await readIdList(storage, referenceId));
    if (next.length === 0) await storage.delete(key);
    else await storage.set(key, JSON.stringify(next));
  };
  const queued = (listQueues.get(key) ?? Promise.resolve()).then(run, run);
  const tracked = queued.finally(() => {
    if (listQueues.get(key) === tracked) listQueues.delete(key);
  });
  listQueues.set(key, tracked);
  await queued;
}

/** Writes a key under its hash and its id, and keeps the reference's list in step. */
export async function writeStored(storage: SecondaryStorage, record: ApiKeyRecord, config: ResolvedConfig): Promise<void> {
  const value = serializeRecord(record);
  const ttl = ttlOf(record);
  await Promise.all([storage.set(byHashKey(record.key), value, ttl), storage.set(byIdKey(record.id), value, ttl)]);
  if (config.fallbackToDatabase) await storage.delete(byReferenceKey(record.referenceId));
  else await changeIdList(storage, record.referenceId, (ids) => (ids.includes(record.id) ? ids : [...ids, record.id]));
}

/** Removes a key from storage (both entries and its place on the list). */
export async function deleteStored(storage: SecondaryStorage, record: ApiKeyRecord, config: ResolvedConfig): Promise<void> {
  await Promise.all([storage.delete(byHashKey(record.key)), storage.delete(byIdKey(record.id))]);
  if (config.fallbackToDatabase) await storage.delete(byReferenceKey(record.referenceId));
  else await changeIdList(storage, record.referenceId, (ids) => ids.filter((id) => id !== record.id));
}
