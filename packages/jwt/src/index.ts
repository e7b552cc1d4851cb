import { COOKIE_CACHE_SIGNER, provide, type LatchkeyPlugin } from "@latchkey/core";
import { assertCookieCacheSetup, createCookieCacheSigner } from "./cookie-cache.js";
import { keyStore } from "./key-store.js";
import { resolveJwtOptions, type JwtOptions, type ResolvedJwtOptions } from "./options.js";
import { getJwks } from "./routes/jwks.js";
import { signJWT, verifyJWT } from "./routes/server-only.js";
import { getToken } from "./routes/token.js";
import { resolveJwtSchema } from "./schema.js";
import { setAuthJwtHook } from "./set-auth-jwt.js";
import { createSigner, JWT_SIGNER } from "./signer.js";

export type {
  JwkAlgorithm,
  JwksAdapter,
  JwksAdapterContext,
  JwksOptions,
  JwtClaimOptions,
  JwtOptions,
  KeyPairConfig,
  RemoteSign,
  SigningConfig,
} from "./options.js";
export type { JwkField, JwkRow, JwtSchemaOptions, NewJwkRow } from "./schema.js";
export { SESSION_CACHE_JWT_AUDIENCE, SESSION_CACHE_JWT_TYPE } from "./cookie-cache.js";
export { SET_AUTH_JWT_HEADER } from "./set-auth-jwt.js";
export { KEY_CACHE_TTL_MS } from "./key-cache.js";
export { durationSeconds, expirationClaim } from "./duration.js";
export { JWT_SIGNER, type JwtSigner, type PublicJwk, type SignOptions, type VerifyOptions } from "./signer.js";

/** The endpoints `jwt()` adds, by `auth.api` name. */
export type JwtEndpoints = {
  getJwks: ReturnType<typeof getJwks>;
  getToken: ReturnType<typeof getToken>;
  signJWT: ReturnType<typeof signJWT>;
  verifyJWT: typeof verifyJWT;
};

/** The plugin object `jwt()` returns. */
export interface JwtPlugin extends LatchkeyPlugin<"jwt", JwtEndpoints> {
  id: "jwt";
  options: ResolvedJwtOptions;
}

/**
 * JSON Web Tokens for sessions: `GET /jwks` serves the public keys, `GET /token` and the
 * `set-auth-jwt` header of `/get-session` give a session's JWT, server code signs and verifies
 * with `auth.api.signJWT` / `verifyJWT`, and other plugins use the `JWT_SIGNER` service.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [jwt({ jwks: { rotationInterval: 7776000 } })] });
 */
export function jwt(options: JwtOptions = {}): JwtPlugin {
  const resolved = resolveJwtOptions(options);
  const store = keyStore(resolved);
  return {
    id: "jwt",
    schema: resolveJwtSchema(resolved.schema),
    endpoints: {
      getJwks: getJwks(resolved),
      getToken: getToken(resolved),
      signJWT: signJWT(options, resolved, store),
      verifyJWT,
    },
    hooks: { after: resolved.disableSettingJwtHeader ? [] : [setAuthJwtHook(resolved)] },
    init: (ctx) => {
      const services = [provide(JWT_SIGNER, createSigner(ctx, resolved, store))];
      if (resolved.sessionCookieCache) {
        assertCookieCacheSetup(ctx, resolved);
        services.push(provide(COOKIE_CACHE_SIGNER, createCookieCacheSigner(ctx, resolved, store)));
      }
      return { services };
    },
    options: resolved,
  };
}
