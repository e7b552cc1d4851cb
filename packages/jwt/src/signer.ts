import { serviceKey, type AuthContext } from "@latchkey/core";
import { SignJWT, decodeProtectedHeader, jwtVerify, type JWK, type JWTPayload } from "jose";
import { expirationClaim } from "./duration.js";
import { importPrivateKey, importPublicKey, rowAlgorithm } from "./key-pair.js";
import type { KeyStore } from "./key-store.js";
import type { ResolvedJwtOptions } from "./options.js";

/** Per-call settings of {@link JwtSigner.sign}; each falls back to the plugin's options. */
export interface SignOptions {
  issuer?: string | undefined;
  audience?: string | string[] | undefined;
  expirationTime?: string | number | Date | undefined;
  /** Extra protected-header members (`typ`); `alg` and `kid` are always the key's. */
  header?: Record<string, unknown> | undefined;
}

/** Per-call settings of {@link JwtSigner.verify}; each falls back to the plugin's options. */
export interface VerifyOptions {
  issuer?: string | undefined;
  audience?: string | string[] | undefined;
}

/** One key of the served set: the public JWK with `alg`, `crv` and `kid` (RFC 7517 §4). */
export type PublicJwk = JWK & { kid: string; alg: string };

/** The signing service the jwt plugin publishes for other plugins (oauth-provider). */
export interface JwtSigner {
  /** Signs `payload` with the current key; `exp`, `iss`, `aud` default from the options. */
  sign(payload: JWTPayload, options?: SignOptions): Promise<string>;
  /** The payload of a token signed by one of the stored keys, or null when it does not verify. */
  verify(token: string, options?: VerifyOptions): Promise<JWTPayload | null>;
  /** The public keys `/jwks` serves. */
  jwks(): Promise<PublicJwk[]>;
}

/** The service key under which `jwt()` publishes its {@link JwtSigner}. */
export const JWT_SIGNER = serviceKey<JwtSigner>("jwt.signer");

/** The configured `baseURL` string; the reference uses it as is (no base path) and "" when dynamic. */
const configuredBaseURL = (ctx: AuthContext): string =>
  typeof ctx.options.baseURL === "string" ? ctx.options.baseURL : "";

/** Builds the signer over an instance's adapter and secret. */
export function createSigner(ctx: AuthContext, options: ResolvedJwtOptions, store: KeyStore): JwtSigner {
  const issuer = (): string => options.claims.issuer ?? configuredBaseURL(ctx);
  const audience = (): string | string[] => options.claims.audience ?? configuredBaseURL(ctx);

  return {
    async sign(payload, signOptions = {}) {
      const row = await store.signing(ctx);
      const key = await importPrivateKey(row, options, ctx.secret);
      const now = Math.floor(Date.now() / 1000);
      const exp =
        payload.exp ?? expirationClaim(signOptions.expirationTime ?? options.expirationTime, payload.iat ?? now);
      // RFC 7515 §4.1.4: `kid` names the row, so a verifier picks the key from the set.
      return new SignJWT(payload)
        .setProtectedHeader({ ...signOptions.header, alg: rowAlgorithm(row, options), kid: row.id })
        .setExpirationTime(exp)
        .setIssuer(payload.iss ?? signOptions.issuer ?? issuer())
        .setAudience(payload.aud ?? signOptions.audience ?? audience())
        .sign(key);
    },

    async verify(token, verifyOptions = {}) {
      try {
        const { kid } = decodeProtectedHeader(token);
        // A token without `kid` is refused: the key must be named, never guessed (reference rule).
        if (!kid) return null;
        const row = (await store.all(ctx)).find((candidate) => candidate.id === kid);
        if (!row) return null;
        const { payload } = await jwtVerify(token, await importPublicKey(row, options), {
          // RFC 7519 §4.1.1/§4.1.3: both are checked; the key's own alg is the only one allowed.
          issuer: verifyOptions.issuer ?? issuer(),
          audience: verifyOptions.audience ?? audience(),
          algorithms: [rowAlgorithm(row, options)],
        });
        if (!payload.sub || !payload.aud) return null;
        return payload;
      } catch (error) {
        // Expected for bad tokens; log the reason only, never the token.
        ctx.logger.debug("JWT verification failed", error instanceof Error ? error.name : "unknown");
        return null;
      }
    },

    async jwks() {
      const rows = await store.served(ctx);
      const keyPair = options.keyPairConfig;
      // The reference falls back to the configured curve only when keyPairConfig was given.
      const defaultCrv = options.configuredKeyPair && "crv" in keyPair ? keyPair.crv : undefined;
      return rows.map((row) => ({
        alg: rowAlgorithm(row, options),
        crv: row.crv ?? defaultCrv,
        ...(JSON.parse(row.publicKey) as JWK),
        kid: row.id,
      })) as PublicJwk[];
    },
  };
}
