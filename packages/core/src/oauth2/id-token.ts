import { jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import type { EndpointContext } from "../api/context.js";
import { constantTimeEqual } from "../crypto/constant-time.js";
import { hexEncode, utf8Encode } from "../crypto/encoding.js";
import type { OAuthProvider } from "./types.js";

/**
 * Signature algorithms accepted when a provider names none. Only asymmetric ones: `none` is
 * an unsigned token, and HS* would let anyone holding a public key (JWKS) or the client
 * secret mint tokens (OIDC Core §10.1, RFC 8725 §3.1). The reference instead trusts the
 * token's own `alg` header.
 */
export const ASYMMETRIC_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/** What an ID token must satisfy (OIDC Core §3.1.3.7). */
export interface IdTokenExpectations {
  jwks: JWTVerifyGetKey;
  issuer?: string | string[] | undefined;
  audience: string | string[];
  /** The client id an `azp` claim must name when present. @default any of the audiences */
  clientId?: string | undefined;
  /** @default {@link ASYMMETRIC_ALGORITHMS} */
  algorithms?: string[] | undefined;
  /** When set, the `nonce` claim must equal it. */
  nonce?: string | undefined;
  nonceComparison?: "exact" | "exact-or-sha256" | undefined;
  maxTokenAge?: string | number | undefined;
  /** Seconds of clock skew tolerated on `exp`, `iat`, `nbf`. @default 5 */
  clockTolerance?: number | undefined;
}

async function sha256Hex(value: string): Promise<string> {
  return hexEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(value))));
}

/** OIDC Core §3.1.3.7 step 11: the nonce claim must equal the one sent; compared in constant time. */
async function nonceMatches(
  claim: unknown,
  expected: string,
  comparison: IdTokenExpectations["nonceComparison"],
): Promise<boolean> {
  if (typeof claim !== "string") return false;
  if (constantTimeEqual(claim, expected)) return true;
  return comparison === "exact-or-sha256" && constantTimeEqual(claim, await sha256Hex(expected));
}

/**
 * Verifies an ID token and returns its claims, or null when any check fails: the JWS
 * signature against the JWKS with an allowed algorithm (steps 6-8), `iss` (step 2), `aud`
 * containing the client (step 3), `azp` when present (step 5), `exp`/`iat` (steps 9-10),
 * `nonce` (step 11) and a `sub` (§2). The reason is not returned: callers answer one error.
 */
export async function verifyIdToken(token: string, expect: IdTokenExpectations): Promise<JWTPayload | null> {
  try {
    const { payload } = await jwtVerify(token, expect.jwks, {
      issuer: expect.issuer,
      audience: expect.audience,
      algorithms: expect.algorithms ?? ASYMMETRIC_ALGORITHMS,
      maxTokenAge: expect.maxTokenAge,
      clockTolerance: expect.clockTolerance ?? 5,
      requiredClaims: ["exp", "iat"],
    });
    if (typeof payload.sub !== "string" || payload.sub === "") return null;
    const parties = expect.clientId ? [expect.clientId] : [expect.audience].flat();
    // §3.1.3.7 step 5: an `azp` names the party the token was issued to; it must be us.
    if (payload.azp !== undefined && !parties.includes(String(payload.azp))) return null;
    if (
      expect.nonce !== undefined &&
      !(await nonceMatches(payload.nonce, expect.nonce, expect.nonceComparison))
    )
      return null;
    return payload;
  } catch {
    return null;
  }
}

/** Whether a provider accepts client-submitted ID tokens (`idToken` config or a `verifyIdToken` override). */
export function supportsIdTokenSignIn(provider: OAuthProvider): boolean {
  const options = provider.options ?? {};
  if (options.disableIdTokenSignIn) return false;
  return !!(provider.idToken || options.verifyIdToken);
}

/**
 * Verifies a client-submitted ID token against the provider's declared config; fails closed
 * (a provider without one never accepts a token). `nonce` is the one the client says it
 * sent; when present the claim must match it.
 */
export async function verifyProviderIdToken(
  provider: OAuthProvider,
  token: string,
  nonce: string | undefined,
  ctx?: EndpointContext,
): Promise<boolean> {
  const options = provider.options ?? {};
  if (options.disableIdTokenSignIn) return false;
  try {
    if (options.verifyIdToken) return (await options.verifyIdToken(token, nonce, ctx)) === true;
    const config = provider.idToken;
    if (!config) return false;
    if ("verify" in config) return (await config.verify(token, nonce, ctx)) === true;
    if (token.split(".").length !== 3) return config.allowOpaqueToken === true;
    const claims = await verifyIdToken(token, {
      jwks: config.jwks,
      issuer: config.issuer,
      audience: config.audience,
      algorithms: config.algorithms,
      maxTokenAge: config.maxTokenAge,
      nonce,
      nonceComparison: config.nonceComparison,
    });
    if (!claims) return false;
    return !config.verifyClaims || config.verifyClaims(claims as Record<string, unknown>);
  } catch {
    return false;
  }
}
