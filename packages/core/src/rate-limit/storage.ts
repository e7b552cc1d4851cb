import type { AuthContext } from "../context.js";
import type { RateLimitConsumeStorage, RateLimitGetSetStorage, RateLimitStorage } from "./options.js";
import { databaseStorage } from "./database-storage.js";
import { memoryStorage } from "./memory-storage.js";
import { secondaryStorageStore } from "./secondary-storage.js";
import { stepWindow } from "./window.js";

const STORAGES = ["memory", "database", "secondary-storage"];

/**
 * A `{ get, set }` custom storage driven by the memory store's window algorithm. Read and
 * write are two calls, so concurrent requests can both pass one stale read; `consume` is the
 * atomic alternative.
 */
function getSetStore(storage: RateLimitGetSetStorage, now: () => number): RateLimitConsumeStorage {
  return {
    async consume(key, rule) {
      const current = await storage.get(key);
      const step = stepWindow(current, key, rule, now());
      if (step.next) await storage.set(key, step.next, !!current);
      return { allowed: step.allowed, retryAfter: step.retryAfter };
    },
  };
}

function customStore(custom: RateLimitStorage, now: () => number): RateLimitConsumeStorage {
  if ("consume" in custom && typeof custom.consume === "function") return custom;
  const getSet = custom as Partial<RateLimitGetSetStorage>;
  if (typeof getSet.get === "function" && typeof getSet.set === "function") {
    return getSetStore(getSet as RateLimitGetSetStorage, now);
  }
  throw new TypeError("rateLimit.customStorage needs consume(key, rule), or get(key) and set(key, value).");
}

/**
 * The storage `rateLimit` selects: `customStorage` first, then `storage` (default
 * `"secondary-storage"` when `secondaryStorage` is set, else `"memory"`). Misconfiguration is
 * refused here, at `createAuth`, not discovered by a request.
 */
export function selectStorage(
  auth: AuthContext,
  windows: number[],
  now: () => number = () => Date.now(),
): RateLimitConsumeStorage {
  const options = auth.options.rateLimit ?? {};
  if (options.customStorage) return customStore(options.customStorage, now);
  const secondary = auth.options.secondaryStorage;
  const kind = options.storage ?? (secondary ? "secondary-storage" : "memory");
  if (!STORAGES.includes(kind)) {
    throw new TypeError(`rateLimit.storage must be one of ${STORAGES.map((s) => `"${s}"`).join(", ")}.`);
  }
  if (kind === "secondary-storage") {
    if (!secondary)
      throw new TypeError('rateLimit.storage "secondary-storage" needs the `secondaryStorage` option.');
    return secondaryStorageStore(secondary, auth.logger, now);
  }
  if (kind === "database") {
    return databaseStorage({
      adapter: auth.adapter,
      generateId: (args) => auth.generateId(args),
      logger: auth.logger,
      windows,
      now,
    });
  }
  return memoryStorage({ now });
}
