import { base64UrlEncode, type AuthContext } from "@latchkey/core";
import type { DpopReplayCheck } from "./dpop-proof.js";

const sha256 = async (text: string): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));

/**
 * Row ids of a reservation: the reference's (unpadded base64url SHA-256 of `reserve:<identifier>`,
 * 43 characters) and a 32-character prefix of the same digest for databases whose id column holds
 * no more (MySQL `varchar(36)`, where the reference's own insert fails).
 */
export async function reservationIds(identifier: string): Promise<{ full: string; short: string }> {
  const digest = await sha256(`reserve:${identifier}`);
  return { full: base64UrlEncode(digest), short: base64UrlEncode(digest.slice(0, 24)) };
}

/**
 * Single use of DPoP proofs across nodes and across Latchkey and the reference (RFC 9449 §11.1).
 *
 * With verification values in the database (no secondary storage, or `storeInDatabase`) this is
 * the reference's reservation: a `verification` row `dpop-proof:<key>` whose primary key is
 * derived from the identifier, so concurrent inserts collide and exactly one wins, whichever side
 * wrote first. With secondary storage only, the reference refuses every proof (it cannot reserve
 * without the table); we count the key atomically in the store instead (`increment`, Redis INCR).
 */
export function dpopReplayStore(ctx: AuthContext): DpopReplayCheck {
  return async (key, expiresAt) => {
    const identifier = `dpop-proof:${key}`;
    const ttl = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
    const storage = ctx.secondaryStorage;
    const inDatabase = !storage || ctx.options.verification?.storeInDatabase === true;
    if (!inDatabase && storage?.increment) return (await storage.increment(identifier, ttl)) === 1;
    const fresh = await reserveRow(ctx, identifier, key, expiresAt);
    // The reference also keeps a copy where its verification lookups read first.
    if (fresh && storage) {
      await storage.set(`verification:${identifier}`, JSON.stringify({ id: (await reservationIds(identifier)).full, identifier, value: key, expiresAt }), ttl);
    }
    return fresh;
  };
}

/** First writer wins on the primary key; false when the reservation already exists. */
async function reserveRow(ctx: AuthContext, identifier: string, value: string, expiresAt: Date): Promise<boolean> {
  const { full, short } = await reservationIds(identifier);
  const insert = async (id: string): Promise<boolean> => {
    const now = new Date();
    try {
      await ctx.adapter.create({ model: "verification", data: { id, identifier, value, expiresAt, createdAt: now, updatedAt: now } });
      return true;
    } catch {
      return false;
    }
  };
  const byId = (id: string) => ctx.adapter.findOne({ model: "verification", where: [{ field: "id", value: id }] });
  if (await insert(full)) return true;
  // A duplicate is told apart from other failures by reading back, not by driver error codes.
  if (await byId(full)) return false;
  // The id did not fit (MySQL `varchar(36)`: refused in strict mode, truncated in lenient mode,
  // where the truncated row is found by its identifier). Reserve the 32-character id instead.
  const sameIdentifier = await ctx.adapter.findOne({ model: "verification", where: [{ field: "identifier", value: identifier }] });
  if (sameIdentifier) return false;
  if (await insert(short)) return true;
  if (await byId(short)) return false;
  throw new Error("DPoP proof reservation could not be stored");
}
