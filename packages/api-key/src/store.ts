import { BetterAuthError, generateId, type AuthContext, type Row } from "@latchkey/core";
import type { ResolvedConfig } from "./options.js";
import { fromRow, toColumns, type ApiKeyRecord } from "./record.js";
import { API_KEY_TABLE_NAME } from "./schema.js";
import {
  byHashKey,
  byIdKey,
  byReferenceKey,
  deleteStored,
  readIdList,
  readStored,
  storeOf,
  writeStored,
} from "./secondary-keys.js";

/** True when the database row is the source of truth (database mode, or storage with fallback). */
export const usesDatabase = (config: ResolvedConfig): boolean =>
  config.storage === "database" || config.fallbackToDatabase;

function requireStore(ctx: AuthContext, config: ResolvedConfig) {
  const storage = storeOf(ctx, config);
  if (!storage) throw new BetterAuthError("Secondary storage is required when storage mode is 'secondary-storage'");
  return storage;
}

async function findInDatabase(ctx: AuthContext, field: "key" | "id", value: string): Promise<ApiKeyRecord | null> {
  const row = await ctx.adapter.findOne({ model: API_KEY_TABLE_NAME, where: [{ field, value }] });
  return row ? fromRow(row) : null;
}

/** One key by `field` in the configuration's store: storage first, then (with fallback) the database, caching what it finds. */
async function find(ctx: AuthContext, config: ResolvedConfig, field: "key" | "id", value: string): Promise<ApiKeyRecord | null> {
  if (config.storage === "database") return findInDatabase(ctx, field, value);
  const storage = storeOf(ctx, config);
  const storageKey = field === "key" ? byHashKey(value) : byIdKey(value);
  if (!config.fallbackToDatabase) return storage ? readStored(storage, storageKey) : null;
  const cached = storage ? await readStored(storage, storageKey) : null;
  if (cached) return cached;
  const found = await findInDatabase(ctx, field, value);
  if (found && storage) await writeStored(storage, found, config);
  return found;
}

/** The key whose stored form is `hash`. */
export const findByHash = (ctx: AuthContext, config: ResolvedConfig, hash: string): Promise<ApiKeyRecord | null> =>
  find(ctx, config, "key", hash);

/** The key with id `id`. */
export const findById = (ctx: AuthContext, config: ResolvedConfig, id: string): Promise<ApiKeyRecord | null> =>
  find(ctx, config, "id", id);

/** Stores a new key and answers it with its id. */
export async function insertKey(ctx: AuthContext, config: ResolvedConfig, data: Omit<ApiKeyRecord, "id">): Promise<ApiKeyRecord> {
  if (!usesDatabase(config)) {
    const record = { ...data, id: generateId() } as ApiKeyRecord;
    await writeStored(requireStore(ctx, config), record, config);
    return record;
  }
  const row = await ctx.internalAdapter.create<Row>(API_KEY_TABLE_NAME, toColumns(data));
  if (!row) throw new BetterAuthError("A database hook refused to create the API key.");
  const record = fromRow(row);
  const storage = config.storage === "secondary-storage" ? storeOf(ctx, config) : undefined;
  if (storage) await writeStored(storage, record, config);
  return record;
}

/** Applies `values` to a key and answers the key as stored afterwards (null when it vanished). */
export async function updateKey(
  ctx: AuthContext,
  config: ResolvedConfig,
  record: ApiKeyRecord,
  values: Partial<ApiKeyRecord>,
): Promise<ApiKeyRecord | null> {
  if (!usesDatabase(config)) {
    const updated = { ...record, ...values, updatedAt: new Date() };
    await writeStored(requireStore(ctx, config), updated, config);
    return updated;
  }
  const row = await ctx.adapter.update({
    model: API_KEY_TABLE_NAME,
    where: [{ field: "id", value: record.id }],
    update: toColumns({ ...values, updatedAt: new Date() }),
  });
  if (!row) return null;
  const updated = fromRow(row);
  await refreshCache(ctx, config, updated);
  return updated;
}

/** With `fallbackToDatabase`: rewrites the cached copy from the row the database now holds. */
export async function refreshCache(ctx: AuthContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<void> {
  const storage = config.storage === "secondary-storage" ? storeOf(ctx, config) : undefined;
  if (storage) await writeStored(storage, record, config);
}

/** Deletes a key from every place the configuration keeps it. */
export async function deleteKey(ctx: AuthContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<void> {
  if (config.storage === "secondary-storage") {
    const storage = usesDatabase(config) ? storeOf(ctx, config) : requireStore(ctx, config);
    if (storage) await deleteStored(storage, record, config);
  }
  if (usesDatabase(config)) await ctx.adapter.delete({ model: API_KEY_TABLE_NAME, where: [{ field: "id", value: record.id }] });
}

/** Every key of `referenceId` in the configuration's store, sorted when asked (the route pages). */
export async function listKeys(
  ctx: AuthContext,
  config: ResolvedConfig,
  referenceId: string,
  sortBy?: { field: string; direction: "asc" | "desc" },
): Promise<ApiKeyRecord[]> {
  const storage = config.storage === "secondary-storage" ? storeOf(ctx, config) : undefined;
  if (storage) {
    const ids = await readIdList(storage, referenceId);
    const found = (await Promise.all(ids.map((id) => readStored(storage, byIdKey(id))))).filter(
      (r): r is ApiKeyRecord => r !== null,
    );
    if (found.length > 0 || !config.fallbackToDatabase) return sortRecords(found, sortBy);
  } else if (config.storage === "secondary-storage" && !config.fallbackToDatabase) {
    return [];
  }
  const rows = await ctx.adapter.findMany({
    model: API_KEY_TABLE_NAME,
    where: [{ field: "referenceId", value: referenceId }],
    ...(sortBy ? { sortBy } : {}),
  });
  const records = rows.map(fromRow);
  if (storage && records.length > 0) {
    for (const record of records) await writeStored(storage, record, config);
    await storage.set(byReferenceKey(referenceId), JSON.stringify(records.map((r) => r.id)));
  }
  return records;
}

/** In-memory order for stored keys, nulls first ascending (the reference's rule). */
function sortRecords(records: ApiKeyRecord[], sortBy?: { field: string; direction: "asc" | "desc" }): ApiKeyRecord[] {
  if (!sortBy) return records;
  const sign = sortBy.direction === "desc" ? -1 : 1;
  const value = (r: ApiKeyRecord): unknown => {
    const v = (r as Record<string, unknown>)[sortBy.field];
    return v instanceof Date ? v.getTime() : v;
  };
  return [...records].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x == null && y == null) return 0;
    if (x == null) return -sign;
    if (y == null) return sign;
    return (x as number) < (y as number) ? -sign : (x as number) > (y as number) ? sign : 0;
  });
}
