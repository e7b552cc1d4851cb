import { remoteJWKS, verifyIdToken } from "@latchkey/core";

/** The claims of a verified token. */
export type GoogleIdTokenClaims = NonNullable<Awaited<ReturnType<typeof verifyIdToken>>>;

/** Where and how a Google ID token is checked. */
export interface GoogleTokenVerifier {
  /** The token's claims when every check passes, else null (one answer for every failure). */
  verify(token: string, audience: string | string[]): Promise<GoogleIdTokenClaims | null>;
}

/**
 * Google signs ID tokens with RS256 only; pinning it refuses `none`, HS* (a public key used
 * as an HMAC secret) and any algorithm swap (RFC 8725 §3.1).
 */
const GOOGLE_ALGORITHMS = ["RS256"];

/** The reference's ceiling on token age, counted from `iat`. */
const MAX_TOKEN_AGE = "1h";

/**
 * Builds the verifier over one key set, fetched on first use, cached, and re-fetched when a
 * token names an unknown `kid` (Google rotates keys), instead of on every sign-in as the
 * reference does; a redirect from the key endpoint is refused. Checks: signature (RS256), `iss`, `aud` = the client id, `azp` when present,
 * `exp`/`iat` with the age ceiling, and a non-empty `sub` (OIDC Core §3.1.3.7).
 */
export function googleTokenVerifier(jwksURL: string, issuer: string | string[]): GoogleTokenVerifier {
  const keys = remoteJWKS(jwksURL);
  return {
    verify(token, audience) {
      return verifyIdToken(token, {
        jwks: keys,
        issuer,
        audience,
        algorithms: GOOGLE_ALGORITHMS,
        maxTokenAge: MAX_TOKEN_AGE,
      });
    },
  };
}

/**
 * Whether the token's `hd` (Google Workspace hosted domain) satisfies the configured one:
 * nothing configured accepts any token; `"*"` accepts any Workspace domain but not a
 * consumer account (no `hd`); otherwise the domains must be equal.
 */
export function hostedDomainAllowed(configured: string | undefined, claim: unknown): boolean {
  if (!configured) return true;
  if (typeof claim !== "string" || claim === "") return false;
  return configured === "*" || claim === configured;
}
