import type { Verification } from "../models.js";
import type { InternalAdapterDeps, Writes } from "./writes.js";

/**
 * Verification values (reset tokens, OAuth state, delete-account tokens) in the database.
 * Lookups return the newest row for an identifier; expired rows are never returned.
 */
export function createVerificationOps(deps: InternalAdapterDeps, writes: Writes, options: { disableCleanup?: boolean }) {
  const { adapter } = deps;
  const byIdentifier = (identifier: string) => [{ field: "identifier", value: identifier }];
  const newest = async (identifier: string): Promise<Verification | null> =>
    (
      await adapter.findMany<Verification>({
        model: "verification",
        where: byIdentifier(identifier),
        sortBy: { field: "createdAt", direction: "desc" },
        limit: 1,
      })
    )[0] ?? null;

  return {
    createVerificationValue: (data: { identifier: string; value: string; expiresAt: Date }, ctx?: unknown) =>
      writes.create<Verification>("verification", { ...data, createdAt: new Date(), updatedAt: new Date() }, ctx),

    /** The newest row; as in the reference, also sweeps expired rows unless `disableCleanup`. */
    async findVerificationValue(identifier: string): Promise<Verification | null> {
      const row = await newest(identifier);
      if (!options.disableCleanup) {
        await writes.deleteMany("verification", [{ field: "expiresAt", value: new Date(), operator: "lt" }]);
      }
      return row && row.expiresAt.getTime() >= Date.now() ? row : null;
    },

    /**
     * Single-use read: atomically takes the newest row, then drops every other row of the
     * identifier so stale copies cannot be replayed. Of concurrent callers exactly one gets
     * the row; an expired row is consumed but not returned.
     */
    async consumeVerificationValue(identifier: string): Promise<Verification | null> {
      const latest = await newest(identifier);
      if (!latest) return null;
      const row = await adapter.consumeOne<Verification>({ model: "verification", where: [{ field: "id", value: latest.id }] });
      if (!row) return null;
      await writes.deleteMany("verification", byIdentifier(identifier));
      return row.expiresAt.getTime() >= Date.now() ? row : null;
    },

    deleteVerificationByIdentifier: async (identifier: string): Promise<void> => {
      await writes.deleteMany("verification", byIdentifier(identifier));
    },

    updateVerificationByIdentifier: (identifier: string, data: Partial<Verification>, ctx?: unknown) =>
      writes.update<Verification>("verification", byIdentifier(identifier), { ...data, updatedAt: new Date() }, ctx),
  };
}
