import type { JWTPayload } from "jose";
import { constantTimeEqual } from "./constant-time.js";
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode } from "./encoding.js";
import { hmacSha256 } from "./hmac.js";

// HS256 JWTs (RFC 7519 over a compact RFC 7515 JWS), written on core's HMAC rather than through
// jose's general JWS code, which an edge bundle would otherwise carry for this one algorithm.
// Tokens match jose's SignJWT byte for byte, and verification refuses what jose's jwtVerify
// refuses: the reference signs and verifies these tokens with jose.

// Protected header exactly {"alg":"HS256"}: no `typ`, so tokens match the reference byte for byte.
const HEADER = base64UrlEncode(utf8Encode('{"alg":"HS256"}'));
// jose decodes claims with a fatal decoder: invalid UTF-8 is a malformed token, not U+FFFD.
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What {@link verifyHS256} found: the claims, or why the token was refused. */
export type HS256Verification = { payload: JWTPayload } | { failure: "invalid" | "expired" };

const INVALID: HS256Verification = { failure: "invalid" };

/**
 * Signs `payload` as an HS256 JWT under the UTF-8 bytes of `secret`, adding `iat` and
 * `exp` (now + `expiresInSeconds`).
 */
export async function signJWT(payload: JWTPayload, secret: string, expiresInSeconds = 3600): Promise<string> {
  // Claims keep the payload's key order (an existing iat/exp keeps its place), then `iat`,
  // then `exp`, as jose's SignJWT appends them.
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = { ...payload };
  claims.iat = now;
  claims.exp = now + expiresInSeconds;
  const input = `${HEADER}.${base64UrlEncode(utf8Encode(JSON.stringify(claims)))}`;
  return `${input}.${base64UrlEncode(await hmacSha256(secret, input))}`;
}

/**
 * Verifies an HS256 JWT: the signature first, then the claims, so an expired token with a bad
 * signature is "invalid", never a hint that it once was valid.
 */
export async function verifyHS256(token: string, secret: string): Promise<HS256Verification> {
  const parts = token.split(".");
  if (parts.length !== 3) return INVALID;
  const [header64, payload64, signature64] = parts as [string, string, string];
  let header: unknown;
  let signature: Uint8Array;
  try {
    header = JSON.parse(utf8Decode(base64UrlDecode(header64)));
    signature = base64UrlDecode(signature64);
  } catch {
    return INVALID;
  }
  // Pin HS256 (RFC 8725 §3.1): the reference lets jose accept any HS* alg for a byte key.
  // Only a holder of the secret can mint one, but nothing we issue uses another alg.
  if (!isObject(header) || header.alg !== "HS256" || !acceptableCrit(header)) return INVALID;
  // RFC 7515 §5.2 step 8; constant-time so a forger learns nothing from the timing.
  if (!constantTimeEqual(signature, await hmacSha256(secret, `${header64}.${payload64}`))) return INVALID;
  let claims: unknown;
  try {
    claims = JSON.parse(strictDecoder.decode(base64UrlDecode(payload64)));
  } catch {
    return INVALID;
  }
  if (!isObject(claims)) return INVALID;
  // jose's order and rules with no clock tolerance (RFC 7519 §4.1.4-4.1.6): iat and nbf must
  // be numbers, nbf not in the future; then exp must be a number and still ahead.
  const now = Math.floor(Date.now() / 1000);
  const { iat, nbf, exp } = claims;
  if (iat !== undefined && typeof iat !== "number") return INVALID;
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now)) return INVALID;
  if (exp !== undefined && typeof exp !== "number") return INVALID;
  if (typeof exp === "number" && exp <= now) return { failure: "expired" };
  return { payload: claims as JWTPayload };
}

/**
 * RFC 7515 §4.1.11: a `crit` header names extensions the verifier must understand. Like jose,
 * the only one understood is `b64` (RFC 7797), and a JWT must keep its payload encoded
 * (`b64: true`); without `crit`, `b64` is ignored.
 */
function acceptableCrit(header: Record<string, unknown>): boolean {
  const { crit } = header;
  if (crit === undefined) return true;
  return (
    Array.isArray(crit) && crit.length > 0 && crit.every((name) => name === "b64") && header.b64 === true
  );
}

/** Verifies an HS256 JWT made by {@link signJWT} and returns its claims, or `null` if invalid or expired. */
export async function verifyJWT(token: string, secret: string): Promise<JWTPayload | null> {
  const result = await verifyHS256(token, secret);
  return "payload" in result ? result.payload : null;
}
