import { SignJWT, jwtVerify, type JWTPayload } from "jose";
import { utf8Encode } from "./encoding.js";

/**
 * Signs `payload` as an HS256 JWT under the UTF-8 bytes of `secret`, adding `iat` and
 * `exp` (now + `expiresInSeconds`).
 */
export async function signJWT(payload: JWTPayload, secret: string, expiresInSeconds = 3600): Promise<string> {
  // Protected header exactly {"alg":"HS256"}: no `typ`, so tokens match the reference byte for
  // byte. Claims keep the payload's key order, then `iat`, then `exp` (jose appends them).
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(utf8Encode(secret));
}

/** Verifies an HS256 JWT made by {@link signJWT} and returns its claims, or `null` if invalid or expired. */
export async function verifyJWT(token: string, secret: string): Promise<JWTPayload | null> {
  try {
    // Pin HS256 (RFC 8725 §3.1): the reference lets jose accept any HS* alg for a byte key.
    // Only a holder of the secret can mint one, but nothing we issue uses another alg.
    // `exp`/`nbf` are checked by jose (RFC 7519 §4.1.4) with no clock tolerance, as the reference.
    const { payload } = await jwtVerify(token, utf8Encode(secret), { algorithms: ["HS256"] });
    return payload;
  } catch {
    return null;
  }
}
