import { BetterAuthError, type AuthContext, type CookieCacheSigner } from "@latchkey/core";
import { SignJWT, decodeProtectedHeader, jwtVerify } from "jose";
import { importPrivateKey, importPublicKey, rowAlgorithm } from "./key-pair.js";
import type { KeyStore } from "./key-store.js";
import type { ResolvedJwtOptions } from "./options.js";

/** `typ` of a session cache JWT (the reference's value): no other JWT of the plugin is read as one. */
export const SESSION_CACHE_JWT_TYPE = "better-auth.session-cache+jwt";
/** `aud` of a session cache JWT (the reference's value), and the issuer fallback. */
export const SESSION_CACHE_JWT_AUDIENCE = "better-auth:session-cache";
/** Seconds of clock skew tolerated on `exp`/`iat`, as the reference. */
const CLOCK_TOLERANCE = 15;

/** The reference's issuer: the configured base URL string, else the instance's, else the audience. */
function cacheIssuer(ctx: AuthContext): string {
  const configured = ctx.options.baseURL;
  return (typeof configured === "string" ? configured : ctx.baseURL) || SESSION_CACHE_JWT_AUDIENCE;
}

/**
 * Checks the session-startup rules of `sessionCookieCache` (the reference's): the cache must
 * use the `jwt` strategy. Warns when cache cookies can outlive a rotated key's grace period.
 */
export function assertCookieCacheSetup(ctx: AuthContext, options: ResolvedJwtOptions): void {
  const cache = ctx.sessionConfig.cookieCache;
  if (cache.strategy !== "jwt") {
    throw new BetterAuthError('`jwt({ sessionCookieCache: true })` requires `session.cookieCache.strategy = "jwt"`.');
  }
  if (options.rotationInterval && cache.maxAge > options.gracePeriod) {
    ctx.logger.warn(
      `session.cookieCache.maxAge (${cache.maxAge}s) exceeds the jwt plugin's key grace period (${options.gracePeriod}s): rotated keys may stop verifying cache cookies before they expire.`,
    );
  }
}

/**
 * The cookie-cache signer over the plugin's keys: an asymmetric JWT (`typ`
 * `better-auth.session-cache+jwt`, `aud` `better-auth:session-cache`, `sub` the user id,
 * `sid` the session token) any holder of `/jwks` can verify, byte-compatible in its claims
 * with the reference's so caches written by either are read by the other.
 */
export function createCookieCacheSigner(ctx: AuthContext, options: ResolvedJwtOptions, store: KeyStore): CookieCacheSigner {
  return {
    async sign(data, expiresIn) {
      const row = await store.signing(ctx);
      const key = await importPrivateKey(row, options, ctx.secret);
      const user = data.user as { id: string };
      const session = data.session as { token: string };
      return new SignJWT({ ...data, sid: session.token })
        .setProtectedHeader({ alg: rowAlgorithm(row, options), kid: row.id, typ: SESSION_CACHE_JWT_TYPE })
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
        .setIssuer(cacheIssuer(ctx))
        .setAudience(SESSION_CACHE_JWT_AUDIENCE)
        .setSubject(user.id)
        .sign(key);
    },

    async verify(value) {
      try {
        const header = decodeProtectedHeader(value);
        // RFC 8725 §3.11: the type keeps other JWTs of these keys (session tokens) out.
        if (header.typ !== SESSION_CACHE_JWT_TYPE || !header.kid) return null;
        const row = await store.find(ctx, header.kid);
        if (!row) return null;
        const { payload } = await jwtVerify(value, await importPublicKey(row, options), {
          algorithms: [rowAlgorithm(row, options)],
          audience: SESSION_CACHE_JWT_AUDIENCE,
          issuer: cacheIssuer(ctx),
          clockTolerance: CLOCK_TOLERANCE,
        });
        const user = payload.user as { id?: unknown } | undefined;
        const session = payload.session as { token?: unknown } | undefined;
        // The subject and session id bind the claims to the payload they travel with.
        if (typeof payload.iss !== "string" || !payload.iss) return null;
        if (payload.sub !== user?.id || payload.sid !== session?.token) return null;
        return payload;
      } catch (error) {
        ctx.logger.debug("Cookie-cache JWT verification failed", error instanceof Error ? error.name : "unknown");
        return null;
      }
    },
  };
}
