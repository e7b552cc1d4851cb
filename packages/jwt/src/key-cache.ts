import type { Adapter, AuthContext } from "@latchkey/core";
import type { JwkRow } from "./schema.js";

/**
 * Milliseconds the stored keys are used from memory before they are read again. Bounds how long
 * a key removed from the table (or added by hand) elsewhere goes unnoticed by this process; a
 * key another node rotated in is seen at once, since an unknown `kid` or the expiry of the
 * cached signing key forces a new read.
 */
export const KEY_CACHE_TTL_MS = 30_000;

/** The keys as one read found them, and the sequence number of that read. */
interface Snapshot {
  rows: JwkRow[];
  seq: number;
  at: number;
}

/** Per storage: the last completed read and the one under way. */
interface CacheState {
  started: number;
  snapshot?: Snapshot | undefined;
  pending?: { seq: number; rows: Promise<JwkRow[]> } | undefined;
}

/** The stored keys held in memory, read again on expiry of the copy or on demand. */
export interface KeyCache {
  /** A marker of "now": pass it to {@link KeyCache.since} to get rows read after this point. */
  mark(ctx: AuthContext): number;
  /** The rows, from memory when read less than {@link KEY_CACHE_TTL_MS} ago. */
  current(ctx: AuthContext): Promise<JwkRow[]>;
  /** Rows from a read begun after `mark` (one under way is shared; else a new read). */
  since(ctx: AuthContext, mark: number): Promise<JwkRow[]>;
}

/**
 * A cache over `read`, per storage (the instance's adapter). Reads are numbered as they begin,
 * so "a read that began after this request did" is exact whatever the clock: a key created
 * before a token naming it was signed is in every read that began after the token arrived.
 */
export function keyCache(read: (ctx: AuthContext) => Promise<JwkRow[]>): KeyCache {
  const states = new WeakMap<Adapter, CacheState>();
  const stateOf = (ctx: AuthContext): CacheState => {
    let state = states.get(ctx.adapter);
    if (!state) states.set(ctx.adapter, (state = { started: 0 }));
    return state;
  };

  function readNow(ctx: AuthContext, state: CacheState): Promise<JwkRow[]> {
    const seq = ++state.started;
    const at = Date.now();
    const rows = read(ctx).then((found) => {
      // A slower, older read never replaces what a newer one found.
      if (!state.snapshot || state.snapshot.seq < seq) state.snapshot = { rows: found, seq, at };
      return found;
    });
    const pending = { seq, rows };
    state.pending = pending;
    // A failed read is not kept: the next caller reads again.
    const clear = () => {
      if (state.pending === pending) state.pending = undefined;
    };
    rows.then(clear, clear);
    return rows;
  }

  function since(ctx: AuthContext, mark: number): Promise<JwkRow[]> {
    const state = stateOf(ctx);
    if (state.snapshot && state.snapshot.seq > mark) return Promise.resolve(state.snapshot.rows);
    if (state.pending && state.pending.seq > mark) return state.pending.rows;
    return readNow(ctx, state);
  }

  return {
    mark: (ctx) => stateOf(ctx).started,
    current(ctx) {
      const state = stateOf(ctx);
      const snapshot = state.snapshot;
      // `at` in the future means the clock was set back: read again rather than trust the copy.
      const age = snapshot ? Date.now() - snapshot.at : Infinity;
      if (snapshot && age >= 0 && age < KEY_CACHE_TTL_MS) return Promise.resolve(snapshot.rows);
      if (state.pending) return state.pending.rows;
      return readNow(ctx, state);
    },
    since,
  };
}
