import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from "jose";
import { boundedFetch, DEFAULT_FETCH_TIMEOUT_MS, type BoundedFetchOptions } from "../net/bounded-fetch.js";

/**
 * A provider's JSON Web Key Set, fetched on first use (so building a provider never touches
 * the network), cached and re-fetched on an unknown `kid` by jose. Each fetch goes through
 * {@link boundedFetch}: time and size limits, redirects refused.
 */
export function remoteJWKS(
  url: string | (() => string | Promise<string>),
  fetchOptions: BoundedFetchOptions = {},
): JWTVerifyGetKey {
  let keys: JWTVerifyGetKey | undefined;
  return async (header, token) => {
    if (!keys) {
      const href = typeof url === "string" ? url : await url();
      keys = createRemoteJWKSet(new URL(href), {
        // jose aborts after its own 5 s by default; ours is the limit that counts.
        timeoutDuration: fetchOptions.timeout ?? DEFAULT_FETCH_TIMEOUT_MS,
        [customFetch]: (input: string, init: RequestInit) => boundedFetch(input, init, fetchOptions),
      });
    }
    return keys(header, token);
  };
}
