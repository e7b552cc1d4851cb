/**
 * A small memo for derived keys (imported HMAC keys, HKDF outputs): at most `limit` entries,
 * the oldest-inserted dropped first, failed derivations not remembered.
 */
export class KeyCache<T> {
  readonly #entries = new Map<string, Promise<T>>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Returns the cached value for `id`, deriving it with `derive` (once, even under concurrency) on a miss. */
  get(id: string, derive: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(id);
    if (hit !== undefined) return hit;
    // Store the promise, not the value, so concurrent first requests share one derivation.
    const pending = derive();
    // A rejected derivation (bad key material) must not poison the slot for later calls.
    pending.catch(() => {
      if (this.#entries.get(id) === pending) this.#entries.delete(id);
    });
    // The bound keeps an app that signs with many secrets (multi-tenant, tests creating
    // instances in a loop) from growing this without limit; a real deployment uses 1-3.
    if (this.#entries.size >= this.#limit) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(id, pending);
    return pending;
  }
}
