import type { AuthContext } from "@latchkey/core";
import { SignJWT, type JWTPayload } from "jose";
import { expirationClaim } from "./duration.js";
import { importPrivateKey, rowAlgorithm } from "./key-pair.js";
import type { KeyStore } from "./key-store.js";
import type { JwkAlgorithm, ResolvedJwtOptions } from "./options.js";

/** Per-call settings of a signature; each claim falls back to the plugin's options. */
export interface SignOptions {
  issuer?: string | undefined;
  audience?: string | string[] | undefined;
  expirationTime?: string | number | Date | undefined;
  /** Extra protected-header members (`typ`); `alg` and `kid` are always the key's. */
  header?: Record<string, unknown> | undefined;
  /** Sign with this key (its `kid`); it must exist, be live and match `signingAlgorithm` when both are given. */
  signingKeyId?: string | undefined;
  /** Sign with the newest key of this algorithm, made on first use when it is configured. */
  signingAlgorithm?: JwkAlgorithm | undefined;
}

/** The configured `baseURL` string; the reference uses it as is (no base path) and "" when dynamic. */
const configuredBaseURL = (ctx: AuthContext): string =>
  typeof ctx.options.baseURL === "string" ? ctx.options.baseURL : "";

/** The default `iss` of signed tokens and the issuer verification requires. */
export const defaultIssuer = (ctx: AuthContext, options: ResolvedJwtOptions): string =>
  options.claims.issuer ?? configuredBaseURL(ctx);

/** The default `aud` of signed tokens and the audience verification requires. */
export const defaultAudience = (ctx: AuthContext, options: ResolvedJwtOptions): string | string[] =>
  options.claims.audience ?? configuredBaseURL(ctx);

/**
 * Signs `payload`: `exp` (from `iat` or now), `iss` and `aud` default from the options and
 * the payload's own win. With `jwt.sign` the complete payload, the extra header and the key
 * pin go to that function, which returns the token; otherwise the store's key signs.
 */
export async function signToken(
  ctx: AuthContext,
  options: ResolvedJwtOptions,
  store: KeyStore,
  payload: JWTPayload,
  signOptions: SignOptions = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const exp = payload.exp ?? expirationClaim(signOptions.expirationTime ?? options.expirationTime, payload.iat ?? now);
  const iss = payload.iss ?? signOptions.issuer ?? defaultIssuer(ctx, options);
  const aud = payload.aud ?? signOptions.audience ?? defaultAudience(ctx, options);
  const pin = { signingKeyId: signOptions.signingKeyId, signingAlgorithm: signOptions.signingAlgorithm };
  if (options.remoteSign) {
    // The remote signer sets `alg` and `kid` itself; the caller's header members still apply.
    return options.remoteSign({ ...payload, exp, iss, aud }, signOptions.header, pin);
  }
  const row = await store.signing(ctx, pin);
  const key = await importPrivateKey(row, options, ctx.secret);
  // RFC 7515 §4.1.4: `kid` names the row, so a verifier picks the key from the set.
  return new SignJWT(payload)
    .setProtectedHeader({ ...signOptions.header, alg: rowAlgorithm(row, options), kid: row.id })
    .setExpirationTime(exp)
    .setIssuer(iss)
    .setAudience(aud)
    .sign(key);
}
