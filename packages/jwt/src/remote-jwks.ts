import { boundedFetch, BetterAuthError } from "@latchkey/core";
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";

/** Milliseconds a fetched remote set is used before it is fetched again (10 minutes). */
const MAX_AGE_MS = 10 * 60 * 1000;
/** An unknown `kid` triggers a new fetch at most this often (a rotated-in key appears quickly, a flood of bogus kids does not). */
const COOLDOWN_MS = 30 * 1000;

/** The key set at `jwks.remoteUrl`, fetched on demand and cached. */
export interface RemoteKeySet {
  /** The current set (fetched when older than 10 minutes). */
  keys(): Promise<JSONWebKeySet>;
  /** A jose key resolver over the set; an unknown `kid` re-fetches it (at most every 30 s). */
  resolver(): JWTVerifyGetKey;
}

function isKeySet(value: unknown): value is JSONWebKeySet {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { keys?: unknown }).keys) &&
    (value as { keys: unknown[] }).keys.every((key) => typeof key === "object" && key !== null && !Array.isArray(key))
  );
}

/**
 * The remote set, read through core's `boundedFetch` (time and size limits, no redirects)
 * and handed to jose's `createLocalJWKSet`; concurrent callers share one fetch.
 */
export function remoteKeySet(url: string): RemoteKeySet {
  let cached: { set: JSONWebKeySet; local: JWTVerifyGetKey; at: number } | undefined;
  let pending: Promise<NonNullable<typeof cached>> | undefined;

  const refresh = (): Promise<NonNullable<typeof cached>> => {
    pending ??= (async () => {
      const response = await boundedFetch(url, { headers: { accept: "application/json" } });
      if (!response.ok) throw new BetterAuthError(`jwt: the remote key set answered ${response.status}.`);
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new BetterAuthError("jwt: the remote key set is not JSON.");
      }
      if (!isKeySet(body)) throw new BetterAuthError("jwt: the remote key set has no `keys` array.");
      cached = { set: body, local: createLocalJWKSet(body), at: Date.now() };
      return cached;
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  };
  const current = async () => (cached && Date.now() - cached.at < MAX_AGE_MS ? cached : refresh());

  return {
    keys: async () => (await current()).set,
    resolver: () => async (header, token) => {
      const entry = await current();
      try {
        return await entry.local(header, token);
      } catch (error) {
        // RFC 7517 §5: a new key may have been published since the set was read.
        if (Date.now() - entry.at < COOLDOWN_MS) throw error;
        return (await refresh()).local(header, token);
      }
    },
  };
}
