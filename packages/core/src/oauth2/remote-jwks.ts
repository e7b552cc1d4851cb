import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from "jose";
import { fetchNoRedirect } from "./token-request.js";

/**
 * A provider's JSON Web Key Set, fetched on first use (so building a provider never touches
 * the network), cached and re-fetched on an unknown `kid` by jose. Redirects are refused as
 * for every other server-side OAuth request.
 */
export function remoteJWKS(url: string | (() => string | Promise<string>)): JWTVerifyGetKey {
  let keys: JWTVerifyGetKey | undefined;
  return async (header, token) => {
    if (!keys) {
      const href = typeof url === "string" ? url : await url();
      keys = createRemoteJWKSet(new URL(href), {
        [customFetch]: (input: string, init: RequestInit) => fetchNoRedirect(input, init),
      });
    }
    return keys(header, token);
  };
}
