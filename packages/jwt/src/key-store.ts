import { BetterAuthError, type Adapter, type AuthContext } from "@latchkey/core";
import { newKeyRow } from "./key-pair.js";
import type { ResolvedJwtOptions } from "./options.js";
import type { JwkRow } from "./schema.js";

/** Reads, selects and creates the rows of the `jwks` table for one plugin instance. */
export interface KeyStore {
  /** Every row, expired ones included. */
  all(ctx: AuthContext): Promise<JwkRow[]>;
  /** The rows `/jwks` serves: unexpired, or expired less than `gracePeriod` ago; creates the first key. */
  served(ctx: AuthContext): Promise<JwkRow[]>;
  /** The row new tokens are signed with; creates one when none is live. */
  signing(ctx: AuthContext): Promise<JwkRow>;
}

// Ties (two nodes creating a key in the same millisecond, or a second-precision column) are
// broken by id, so every node picks the same key from the same rows.
const newestFirst = (a: JwkRow, b: JwkRow): number =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const isLive = (row: JwkRow, now: number): boolean => !row.expiresAt || row.expiresAt.getTime() > now;

/** Latest live key of the primary algorithm, else the latest live key at all (reference order). */
function pickSigningKey(rows: JwkRow[], options: ResolvedJwtOptions, now: number): JwkRow | undefined {
  const live = rows.filter((row) => isLive(row, now)).sort(newestFirst);
  const primary = options.keyPairConfig.alg;
  // Legacy rows without `alg` count as the configured algorithm.
  return live.find((row) => (row.alg ?? primary) === primary) ?? live[0];
}

/** Per adapter: the creation under way, and the count and last row of finished ones. */
interface CreationState {
  pending?: Promise<JwkRow>;
  generation: number;
  last?: JwkRow;
}

/** A key store over the instance's adapter, with creation coalesced per adapter. */
export function keyStore(options: ResolvedJwtOptions): KeyStore {
  // Concurrent first requests in one process share one creation, so a burst of N calls on an
  // empty table makes one key, not N. A caller notes the generation before it reads the
  // table; if a creation finished since, the table it saw is stale and it takes that row
  // instead of making another. Across processes several keys may still be made at once;
  // each is a complete row served by `/jwks`, so every token signed by any of them
  // verifies, and all nodes converge on the newest as the signing key.
  const states = new WeakMap<Adapter, CreationState>();
  const stateOf = (adapter: Adapter): CreationState => {
    let state = states.get(adapter);
    if (!state) states.set(adapter, (state = { generation: 0 }));
    return state;
  };

  const all = (ctx: AuthContext): Promise<JwkRow[]> =>
    ctx.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });

  function create(ctx: AuthContext, seenGeneration: number): Promise<JwkRow> {
    const state = stateOf(ctx.adapter);
    if (state.pending) return state.pending;
    if (state.generation !== seenGeneration && state.last) return Promise.resolve(state.last);
    const made = (async () => {
      const data = await newKeyRow(options.keyPairConfig, options, ctx.secret);
      // Through the internal adapter: it assigns the row id (the future `kid`) as for any row.
      const row = await ctx.internalAdapter.create<JwkRow>("jwks", { ...data });
      if (!row) throw new BetterAuthError("A database hook refused to create the JWKS key.");
      state.last = row;
      state.generation += 1;
      return row;
    })().finally(() => {
      state.pending = undefined;
    });
    state.pending = made;
    return made;
  }

  return {
    all,
    async served(ctx) {
      const seen = stateOf(ctx.adapter).generation;
      let rows = await all(ctx);
      if (rows.length === 0) {
        await create(ctx, seen);
        rows = await all(ctx);
      }
      const now = Date.now();
      const grace = options.gracePeriod * 1000;
      // RFC 7517 §5: the set lists every key a relying party may still meet; a rotated key
      // stays for the grace period so tokens it signed keep verifying until they expire.
      return rows.filter((row) => !row.expiresAt || row.expiresAt.getTime() + grace > now);
    },
    async signing(ctx) {
      const seen = stateOf(ctx.adapter).generation;
      const found = pickSigningKey(await all(ctx), options, Date.now());
      if (found) return found;
      const made = await create(ctx, seen);
      // Read back rather than use the row just made: another node may have made a newer one
      // at the same moment, and every node should then sign with the same key.
      return pickSigningKey(await all(ctx), options, Date.now()) ?? made;
    },
  };
}
