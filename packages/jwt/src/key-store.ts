import { BetterAuthError, type Adapter, type AuthContext } from "@latchkey/core";
import { keyCache } from "./key-cache.js";
import { newKeyRow } from "./key-pair.js";
import type { KeyPairConfig, ResolvedJwtOptions, SigningConfig } from "./options.js";
import type { JwkRow } from "./schema.js";

/**
 * Reads, selects and creates the keys of one plugin instance (the `jwks` table or the custom
 * adapter). Signing and verification use the keys from memory (key-cache.ts); `/jwks` reads them.
 */
export interface KeyStore {
  /** Every key, expired ones included, read now. */
  all(ctx: AuthContext): Promise<JwkRow[]>;
  /** The key named `kid` (verification): from memory, read again when the copy lacks it; undefined when none is stored. */
  find(ctx: AuthContext, kid: string): Promise<JwkRow | undefined>;
  /** The keys `/jwks` serves: unexpired, or expired less than `gracePeriod` ago; creates the first key. */
  served(ctx: AuthContext): Promise<JwkRow[]>;
  /**
   * The key a new token is signed with. Unpinned: the newest live key of the primary
   * algorithm, else the newest live key, else a new primary key. `signingKeyId` names a
   * key that must exist, be live and (with `signingAlgorithm`) have that algorithm;
   * `signingAlgorithm` alone takes the newest live key of it, making one when the
   * algorithm is configured (`keyPairConfig` or `keyPairConfigs`).
   */
  signing(ctx: AuthContext, pin?: SigningConfig): Promise<JwkRow>;
  /** Why `signing(ctx, pin)` would fail (a missing, expired or mismatched key, an unconfigured algorithm), or undefined. */
  pinProblem(ctx: AuthContext, pin: SigningConfig): Promise<string | undefined>;
}

// Ties (two nodes creating a key in the same millisecond, or a second-precision column) are
// broken by id, so every node picks the same key from the same rows.
const newestFirst = (a: JwkRow, b: JwkRow): number =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const isLive = (row: JwkRow, now: number): boolean => !row.expiresAt || row.expiresAt.getTime() > now;

/** Newest live key of `alg`; legacy rows without `alg` count as the primary algorithm. */
function newestOf(rows: JwkRow[], alg: string, options: ResolvedJwtOptions, now: number): JwkRow | undefined {
  const primary = options.keyPairConfig.alg;
  return rows
    .filter((row) => (row.alg ?? primary) === alg && isLive(row, now))
    .sort(newestFirst)[0];
}

/** Latest live key of the primary algorithm, else the latest live key at all (reference order). */
function pickUnpinned(rows: JwkRow[], options: ResolvedJwtOptions, now: number): JwkRow | undefined {
  return newestOf(rows, options.keyPairConfig.alg, options, now) ?? rows.filter((row) => isLive(row, now)).sort(newestFirst)[0];
}

/** Per storage and algorithm: the creation under way, and the count and last row of finished ones. */
interface CreationState {
  pending?: Promise<JwkRow>;
  generation: number;
  last?: JwkRow;
}

/** A key store over the instance's adapter (or the custom one), with creation coalesced per algorithm. */
export function keyStore(options: ResolvedJwtOptions): KeyStore {
  // Concurrent first requests in one process share one creation per algorithm, so a burst of
  // N calls on an empty table makes one key, not N. A caller notes the generation before it
  // reads the keys; if a creation finished since, what it saw is stale and it takes that row
  // instead of making another. Across processes several keys may still be made at once;
  // each is a complete row served by `/jwks`, so every token signed by any of them
  // verifies, and all nodes converge on the newest as the signing key.
  const states = new WeakMap<Adapter, Map<string, CreationState>>();
  const stateOf = (ctx: AuthContext, alg: string): CreationState => {
    let byAlg = states.get(ctx.adapter);
    if (!byAlg) states.set(ctx.adapter, (byAlg = new Map()));
    let state = byAlg.get(alg);
    if (!state) byAlg.set(alg, (state = { generation: 0 }));
    return state;
  };
  const custom = options.adapter;

  const read = async (ctx: AuthContext): Promise<JwkRow[]> =>
    custom.getJwks
      ? ((await custom.getJwks({ context: ctx })) ?? [])
      : ctx.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });
  const cache = keyCache(read);
  // Every fresh read also refreshes the copy in memory.
  const all = (ctx: AuthContext): Promise<JwkRow[]> => cache.since(ctx, cache.mark(ctx));

  /**
   * The first of `pick` over the keys in memory; when it finds none, over a read begun now (a key
   * another node made since the copy was read, or the copy's key expired).
   */
  async function lookup<T>(ctx: AuthContext, pick: (rows: JwkRow[]) => T | undefined): Promise<T | undefined> {
    const mark = cache.mark(ctx);
    return pick(await cache.current(ctx)) ?? pick(await cache.since(ctx, mark));
  }

  async function insert(ctx: AuthContext, config: KeyPairConfig): Promise<JwkRow> {
    const data = await newKeyRow(config, options, ctx.secret);
    if (custom.createJwk) return custom.createJwk(data, { context: ctx });
    // Through the internal adapter: it assigns the row id (the future `kid`) as for any row.
    const row = await ctx.internalAdapter.create<JwkRow>("jwks", { ...data });
    if (!row) throw new BetterAuthError("A database hook refused to create the JWKS key.");
    return row;
  }

  function create(ctx: AuthContext, config: KeyPairConfig, seenGeneration: number): Promise<JwkRow> {
    const state = stateOf(ctx, config.alg);
    if (state.pending) return state.pending;
    if (state.generation !== seenGeneration && state.last) return Promise.resolve(state.last);
    const made = insert(ctx, config)
      .then((row) => {
        state.last = row;
        state.generation += 1;
        return row;
      })
      .finally(() => {
        state.pending = undefined;
      });
    state.pending = made;
    return made;
  }

  /** The configuration keys of `alg` are made with, or undefined when `alg` is not configured. */
  const configFor = (alg: string): KeyPairConfig | undefined =>
    options.keyPairConfigs.find((config) => config.alg === alg) ??
    (options.keyPairConfig.alg === alg ? options.keyPairConfig : undefined);

  const byId = (kid: string) => (rows: JwkRow[]) => rows.find((candidate) => candidate.id === kid);

  /** `row`, the key `kid` names, or why it cannot sign (absent, another algorithm, expired). */
  function keyById(row: JwkRow | undefined, kid: string, alg: string | undefined): JwkRow | string {
    if (!row) return `signingKeyId "${kid}" is not in the key set; create the key before naming it.`;
    const rowAlg = row.alg ?? options.keyPairConfig.alg;
    if (alg !== undefined && rowAlg !== alg) return `signingKeyId "${kid}" has alg "${rowAlg}" but signingAlgorithm is "${alg}".`;
    if (!isLive(row, Date.now())) return `signingKeyId "${kid}" has expired; a pinned key is never replaced automatically.`;
    return row;
  }

  /** Why no key of `alg` can be found or made, or undefined. */
  function algorithmProblem(rows: JwkRow[], alg: string): string | undefined {
    if (newestOf(rows, alg, options, Date.now()) || configFor(alg)) return undefined;
    const extra = options.keyPairConfigs.map((c) => c.alg).join(", ") || "none";
    return `no key with alg "${alg}". Keys are made for keyPairConfig.alg "${options.keyPairConfig.alg}" and jwks.keyPairConfigs (${extra}); add "${alg}" to jwks.keyPairConfigs to make its key on first use.`;
  }

  async function pinnedById(ctx: AuthContext, kid: string, alg: string | undefined): Promise<JwkRow> {
    const found = keyById(await lookup(ctx, byId(kid)), kid, alg);
    if (typeof found === "string") throw new BetterAuthError(`signJWT: ${found}`);
    return found;
  }

  async function pinnedByAlgorithm(ctx: AuthContext, alg: string): Promise<JwkRow> {
    const seen = stateOf(ctx, alg).generation;
    const found = await lookup(ctx, (rows) => newestOf(rows, alg, options, Date.now()));
    if (found) return found;
    const config = configFor(alg);
    if (!config) throw new BetterAuthError(`signJWT: ${algorithmProblem([], alg)}`);
    const made = await create(ctx, config, seen);
    return newestOf(await all(ctx), alg, options, Date.now()) ?? made;
  }

  return {
    all,
    async pinProblem(ctx, pin) {
      if (pin.signingKeyId !== undefined) {
        const found = keyById(await lookup(ctx, byId(pin.signingKeyId)), pin.signingKeyId, pin.signingAlgorithm);
        return typeof found === "string" ? found : undefined;
      }
      return pin.signingAlgorithm !== undefined ? algorithmProblem(await all(ctx), pin.signingAlgorithm) : undefined;
    },
    find: (ctx, kid) => lookup(ctx, byId(kid)),
    async served(ctx) {
      const seen = stateOf(ctx, options.keyPairConfig.alg).generation;
      let rows = await all(ctx);
      if (rows.length === 0) {
        await create(ctx, options.keyPairConfig, seen);
        rows = await all(ctx);
      }
      const now = Date.now();
      const grace = options.gracePeriod * 1000;
      // RFC 7517 §5: the set lists every key a relying party may still meet; a rotated key
      // stays for the grace period so tokens it signed keep verifying until they expire.
      return rows.filter((row) => !row.expiresAt || row.expiresAt.getTime() + grace > now);
    },
    async signing(ctx, pin = {}) {
      if (pin.signingKeyId !== undefined) return pinnedById(ctx, pin.signingKeyId, pin.signingAlgorithm);
      if (pin.signingAlgorithm !== undefined) return pinnedByAlgorithm(ctx, pin.signingAlgorithm);
      const seen = stateOf(ctx, options.keyPairConfig.alg).generation;
      const found = await lookup(ctx, (rows) => pickUnpinned(rows, options, Date.now()));
      if (found) return found;
      const made = await create(ctx, options.keyPairConfig, seen);
      // Read back rather than use the row just made: another node may have made a newer one
      // at the same moment, and every node should then sign with the same key.
      return pickUnpinned(await all(ctx), options, Date.now()) ?? made;
    },
  };
}
