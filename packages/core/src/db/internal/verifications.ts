import type { DatabaseHookContext } from "../database-hooks.js";
import type { Row, Where } from "../adapter.js";
import type { Verification } from "../models.js";
import type { InternalAdapterDeps, Writes } from "./writes.js";
import { runAfter, runBefore } from "../database-hooks.js";
import { parseStoredJSON, takeStoredValue, ttlSeconds } from "../secondary-storage.js";
import { prepareStoredRow, storageRowId } from "./row-prep.js";
import { isValidDate, reviveDates } from "./stored-dates.js";
import { identifierForms } from "./verification-identifier.js";

const VERIFICATION_DATES = ["expiresAt", "createdAt", "updatedAt"] as const;

/** Secondary-storage key of a verification value (reference core.md §2.5). */
export const verificationKey = (storedIdentifier: string): string => `verification:${storedIdentifier}`;

/**
 * Verification values (reset tokens, OAuth state, delete-account tokens). Identifiers are
 * stored as `verification.storeIdentifier` says. Without secondary storage they are database
 * rows; with it they are `verification:<identifier>` JSON values, also rows when
 * `verification.storeInDatabase`. Lookups return the newest value; expired ones never.
 */
export function createVerificationOps(
  deps: InternalAdapterDeps,
  writes: Writes,
  options: { disableCleanup?: boolean },
) {
  const { adapter, schema, hooks, stores } = deps;
  const storage = stores?.secondaryStorage;
  const inDatabase = stores?.verificationInDatabase ?? true;
  const forms = (identifier: string) => identifierForms(identifier, stores?.storeIdentifier);
  const newest = async (identifier: string): Promise<Verification | null> =>
    (
      await adapter.findMany<Verification>({
        model: "verification",
        where: [{ field: "identifier", value: identifier }],
        sortBy: { field: "createdAt", direction: "desc" },
        limit: 1,
      })
    )[0] ?? null;
  const live = (row: Verification | null): Verification | null =>
    row && row.expiresAt.getTime() >= Date.now() ? row : null;

  /** A stored value as a row with `Date`s; null when unreadable or without a valid expiry. */
  const hydrate = (raw: unknown): Verification | null => {
    const parsed = parseStoredJSON<Record<string, unknown>>(raw);
    if (!parsed) return null;
    const row = reviveDates<Verification>(schema, "verification", parsed, VERIFICATION_DATES);
    return isValidDate(row.expiresAt) ? row : null;
  };
  const store = async (row: Verification): Promise<void> => {
    const ttl = ttlSeconds(row.expiresAt);
    if (storage && ttl > 0) await storage.set(verificationKey(row.identifier), JSON.stringify(row), ttl);
  };

  /** Single-use read from the database: takes the newest row, then drops the identifier's others. */
  const consumeRow = async (identifier: string): Promise<Verification | null> => {
    const latest = await newest(identifier);
    if (!latest) return null;
    const row = await adapter.consumeOne<Verification>({
      model: "verification",
      where: [{ field: "id", value: latest.id }],
    });
    if (!row) return null;
    await writes.deleteMany("verification", [{ field: "identifier", value: identifier }]);
    return row;
  };

  return {
    async createVerificationValue(
      data: { identifier: string; value: string; expiresAt: Date },
      ctx?: DatabaseHookContext,
    ) {
      const { stored } = await forms(data.identifier);
      const now = new Date();
      const row: Row = { ...data, identifier: stored, createdAt: now, updatedAt: now };
      if (!storage) return writes.create<Verification>("verification", row, ctx);
      const newId = inDatabase ? deps.generateId : storageRowId(deps.generateId);
      const prepared = await runBefore(
        hooks,
        "verification",
        "create",
        prepareStoredRow(schema, "verification", newId, row),
        ctx ?? null,
      );
      if (!prepared) return null;
      const created = (
        inDatabase ? await adapter.create({ model: "verification", data: prepared }) : prepared
      ) as Verification;
      await store(created);
      await runAfter(hooks, "verification", "create", created, ctx ?? null);
      return created;
    },

    /** The newest live value; as in the reference, a database lookup also sweeps expired rows unless `disableCleanup`. */
    async findVerificationValue(identifier: string): Promise<Verification | null> {
      const { candidates } = await forms(identifier);
      if (storage) {
        for (const candidate of candidates) {
          const found = hydrate(await storage.get(verificationKey(candidate)));
          if (found) return live(found);
        }
        if (!inDatabase) return null;
      }
      let row: Verification | null = null;
      for (const candidate of candidates) if (!row) row = await newest(candidate);
      if (!options.disableCleanup) {
        await writes.deleteMany("verification", [{ field: "expiresAt", value: new Date(), operator: "lt" }]);
      }
      return live(row);
    },

    /**
     * Single-use read: of concurrent callers exactly one gets the value, and every other copy of
     * the identifier is dropped so a stale one cannot be replayed. Storage-only values are taken
     * with `getAndDelete` (non-atomic get + delete, with one warning, when the store lacks it).
     * An expired value is consumed but not returned, unless `includeExpired` (the OAuth state
     * check reads an expired flow's error URL); the caller then checks `expiresAt` itself.
     */
    async consumeVerificationValue(
      identifier: string,
      consumeOptions: { includeExpired?: boolean } = {},
    ): Promise<Verification | null> {
      const { candidates } = await forms(identifier);
      let consumed: Verification | null = null;
      if (storage && !inDatabase) {
        for (const candidate of candidates) {
          consumed = hydrate(await takeStoredValue(storage, verificationKey(candidate), stores?.logger));
          if (consumed) break;
        }
      } else {
        for (const candidate of candidates) {
          consumed = await consumeRow(candidate);
          if (consumed) break;
        }
      }
      if (consumed && storage) await Promise.all(candidates.map((c) => storage.delete(verificationKey(c))));
      return consumeOptions.includeExpired ? consumed : live(consumed);
    },

    async deleteVerificationByIdentifier(identifier: string): Promise<void> {
      const { candidates } = await forms(identifier);
      if (storage) await Promise.all(candidates.map((c) => storage.delete(verificationKey(c))));
      const where: Where[] = [{ field: "identifier", value: candidates, operator: "in" }];
      if (inDatabase) await writes.deleteMany("verification", where);
    },

    /** Updates the value in each store that holds it; null when none does. */
    async updateVerificationByIdentifier(
      identifier: string,
      data: Partial<Verification>,
      ctx?: DatabaseHookContext,
    ): Promise<Verification | null> {
      const { stored } = await forms(identifier);
      const changes = { ...data, updatedAt: new Date() };
      let updated: Verification | null = null;
      if (storage) {
        const cached = hydrate(await storage.get(verificationKey(stored)));
        if (cached) {
          updated = { ...cached, ...changes, identifier: stored };
          // Moved into the past: drop it now rather than let the old copy live out its TTL.
          if (ttlSeconds(updated.expiresAt) > 0) await store(updated);
          else await storage.delete(verificationKey(stored));
        }
        if (!inDatabase) return updated;
      }
      return writes.update<Verification>(
        "verification",
        [{ field: "identifier", value: stored }],
        changes,
        ctx,
      );
    },
  };
}
