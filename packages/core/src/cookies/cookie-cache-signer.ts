import { serviceKey } from "../plugin-services.js";
import type { SessionData } from "./cookie-cache-codec.js";

/**
 * Signs and verifies the `jwt` strategy's cache value in place of core's HS256 under the
 * secret. A plugin publishes it (the jwt plugin's `sessionCookieCache`, so services holding
 * only the public key set can read the cache); core uses it for `strategy: "jwt"` only.
 */
export interface CookieCacheSigner {
  /** The cache value for `data`, valid for `expiresIn` seconds. */
  sign(data: SessionData, expiresIn: number): Promise<string>;
  /**
   * The claims of a value this signer (or a compatible one) issued, or null when it does not
   * verify. Core then checks `exp` is present and the claims have the session's shape.
   */
  verify(value: string): Promise<Record<string, unknown> | null>;
}

/** The service key core reads a {@link CookieCacheSigner} from. */
export const COOKIE_CACHE_SIGNER = serviceKey<CookieCacheSigner>("core.cookie-cache-signer");
