import type { JWTPayload } from "jose";
import type { JwkRow } from "./schema.js";

/** How many verified tokens one signer remembers; past it the oldest is forgotten. */
const MAX_ENTRIES = 1024;

/** One successful verification: what it returned, under which key, and until when it holds. */
interface Verified {
  payload: JWTPayload;
  kid: string;
  alg: string | null;
  publicKey: string;
  /** When it was verified, and when `exp` ends it (ms; Infinity without `exp`). */
  from: number;
  until: number;
}

/** Successful verifications by token and the checks asked (issuer, audience). */
export interface VerifiedTokens {
  /** The payload verified before, when its key `current` still has the same public key; else undefined. */
  recall(cacheKey: string, current: (kid: string) => Promise<JwkRow | undefined>): Promise<JWTPayload | undefined>;
  /** Remembers a payload that verified under `row`. */
  remember(cacheKey: string, payload: JWTPayload, row: JwkRow): void;
}

/**
 * A bounded memory of verified tokens, so a token presented again (a resource server introspecting
 * the same access token on each call) costs a map lookup instead of a signature check. Only
 * successes are kept; an entry stands while the token's `exp` has not passed (RFC 7519 §4.1.4,
 * the test jose applies) and its key is still in the set with the same public key, so a key
 * removed from the table ends its tokens here as soon as the key cache sees it gone.
 */
export function verifiedTokens(): VerifiedTokens {
  const entries = new Map<string, Verified>();
  return {
    async recall(cacheKey, current) {
      const entry = entries.get(cacheKey);
      if (!entry) return undefined;
      const now = Date.now();
      // A clock set back before the verification is not trusted with it.
      if (now < entry.from || now >= entry.until) {
        entries.delete(cacheKey);
        return undefined;
      }
      const row = await current(entry.kid);
      if (!row || row.publicKey !== entry.publicKey || (row.alg ?? null) !== entry.alg) {
        entries.delete(cacheKey);
        return undefined;
      }
      // A copy: callers spread and extend what they get.
      return { ...entry.payload };
    },
    remember(cacheKey, payload, row) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      const now = Date.now();
      const until = typeof payload.exp === "number" ? payload.exp * 1000 : Infinity;
      entries.set(cacheKey, { payload: { ...payload }, kid: row.id, alg: row.alg ?? null, publicKey: row.publicKey, from: now, until });
    },
  };
}
