import { decodeJwt } from "jose";

/**
 * The claims of an ID token whose origin is already vouched for, without checking its
 * signature again: one the provider's token endpoint returned over TLS (OIDC Core §3.1.3.7
 * step 6 lets TLS server validation stand in for the signature check), or one core verified
 * before a `POST /sign-in/social`. Null for anything that is not a JWS with a claims object.
 */
export function idTokenClaims(token: string | undefined): Record<string, unknown> | null {
  if (!token || token.split(".").length !== 3) return null;
  try {
    return decodeJwt(token) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** A non-empty string claim, else undefined. */
export const textClaim = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined;
