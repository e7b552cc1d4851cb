import type { JWTPayload } from "jose";
import type { Session, User } from "../db/models.js";
import { dateFromText } from "../db/stored-date.js";
import type { CookieCacheStrategy } from "./cookie-cache-options.js";
import type { CookieCacheSigner } from "./cookie-cache-signer.js";
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode } from "../crypto/encoding.js";
import { hmacBase64Url, verifyHmacBase64Url } from "../crypto/hmac.js";
import { symmetricDecodeJWT, symmetricEncodeJWT } from "../crypto/jwe.js";
import { signJWT, verifyJWT } from "../crypto/jwt.js";

// Wire formats of the `session_data` cookie (reference core.md §7, better-auth
// cookies/index.ts `setCookieCache` / `decodeCookieCache`). Every byte here is fixed by
// cookies the reference already issued: key order, signed message, encodings, salt.

/** HKDF salt of the `jwe` strategy (core.md §5.3); `account_data` uses "better-auth-account". */
const JWE_SALT = "better-auth-session";

/**
 * What the cache carries, in the reference's key order: `session`, `user`, `updatedAt`
 * (epoch ms of issue), `version`. Dates travel as ISO strings (JSON).
 */
export interface SessionData {
  session: Record<string, unknown>;
  user: Record<string, unknown>;
  updatedAt: number;
  version: string;
}

/** A verified cache payload, dates revived. */
export interface CookieCachePayload {
  session: Session;
  user: User;
  updatedAt: number;
  /** Absent in caches written before versions existed; read as "1". */
  version?: string;
}

/** A verified cache and when it stops being valid (epoch ms). */
export interface DecodedCookieCache {
  payload: CookieCachePayload;
  expiresAt: number;
}

/** Extra fields (beyond core's) of type `date` to revive from ISO strings. */
export interface CacheDateFields {
  session: readonly string[];
  user: readonly string[];
}

/**
 * The compact value: base64url (no padding) of `{"session":data,"expiresAt":ms,"signature":sig}`
 * where `sig` = base64url HMAC-SHA256(secret, JSON of `{...data, expiresAt}`), i.e. keys
 * session, user, updatedAt, version, expiresAt. Exported for byte-level compatibility tests.
 */
export async function encodeCompactCache(data: SessionData, expiresAt: number, secret: string): Promise<string> {
  // The signed message is the payload with `expiresAt` appended, so the expiry is covered
  // by the MAC even though it sits outside `session` in the cookie.
  const signature = await hmacBase64Url(secret, JSON.stringify({ ...data, expiresAt }));
  return base64UrlEncode(utf8Encode(JSON.stringify({ session: data, expiresAt, signature })));
}

/**
 * Encodes the cache with `strategy`. `maxAge` is the cookie's Max-Age, undefined for a
 * browser-session cookie (rememberMe false), where the reference's fallbacks differ per
 * strategy: compact content lives 60 s, jwt and jwe tokens 300 s. A `signer` (published by a
 * plugin) signs the `jwt` strategy's token instead of HS256 under the secret.
 */
export async function encodeCookieCache(
  strategy: CookieCacheStrategy,
  data: SessionData,
  maxAge: number | undefined,
  secret: string,
  signer?: CookieCacheSigner,
): Promise<string> {
  // Spread into a literal: JWT claims are an open record, the interface is not.
  const claims: JWTPayload = { ...data };
  if (strategy === "jwt" && signer) return signer.sign(data, maxAge || 300);
  // jose adds `iat` and `exp` (and, for jwe, `jti`) after the payload's own keys.
  if (strategy === "jwt") return signJWT(claims, secret, maxAge || 300);
  if (strategy === "jwe") return symmetricEncodeJWT(claims, secret, JWE_SALT, maxAge || 300);
  return encodeCompactCache(data, Date.now() + (maxAge || 60) * 1000, secret);
}

/**
 * Verifies and parses a cache value written with `strategy` (by Latchkey or the reference).
 * Null when it is malformed, tampered with, signed under another secret, or its payload
 * does not have the shape of a session and user. Expiry is checked by the caller, except
 * that jose already refuses an expired jwt (no leeway) or jwe (15 s leeway). With a `signer`
 * the `jwt` strategy's token is verified by it alone (an HS256 token is then refused).
 */
export async function decodeCookieCache(
  strategy: CookieCacheStrategy,
  value: string,
  secret: string,
  dates: CacheDateFields,
  signer?: CookieCacheSigner,
): Promise<DecodedCookieCache | null> {
  if (strategy === "compact") return decodeCompact(value, secret, dates);
  const claims =
    strategy === "jwe"
      ? await symmetricDecodeJWT(value, secret, JWE_SALT)
      : signer
        ? await signer.verify(value)
        : await verifyJWT(value, secret);
  // Both writers always set `exp`; the reference falls back to "now" when it is missing,
  // which would make such a token valid forever. Refuse it instead.
  if (!claims || typeof claims.exp !== "number") return null;
  const payload = parsePayload(claims, dates);
  return payload && { payload, expiresAt: claims.exp * 1000 };
}

async function decodeCompact(value: string, secret: string, dates: CacheDateFields): Promise<DecodedCookieCache | null> {
  let outer: unknown;
  try {
    outer = JSON.parse(utf8Decode(base64UrlDecode(value)));
  } catch {
    // Not base64url or not JSON: tampered. (The reference answers 500 here; DIVERGENCES.md.)
    return null;
  }
  if (!isRecord(outer) || !isRecord(outer.session)) return null;
  const { session, expiresAt, signature } = outer;
  if (typeof expiresAt !== "number" || typeof signature !== "string") return null;
  // Re-serialise what was signed. JSON.parse keeps key order and JSON.stringify of parsed
  // JSON reproduces the writer's text, so this is byte-identical to the signed message.
  // The MAC is checked with Web Crypto `verify`, a constant-time comparison.
  if (!(await verifyHmacBase64Url(secret, JSON.stringify({ ...session, expiresAt }), signature))) return null;
  const payload = parsePayload(session, dates);
  return payload && { payload, expiresAt };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

// Only strings of this exact shape become dates, as the reference's JSON reviver does.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== "string" || !ISO_DATE.test(value)) return null;
  const date = dateFromText(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const optionalText = (value: unknown): boolean => value === undefined || value === null || typeof value === "string";

/**
 * Revives the required and the extra date fields of one record; null when a required one is
 * missing or not a date. Extra fields that are not ISO strings (null, say) stay as they are.
 */
function reviveDates(record: Record<string, unknown>, required: readonly string[], extra: readonly string[]) {
  const out: Record<string, unknown> = { ...record };
  for (const key of required) {
    const date = toDate(record[key]);
    if (!date) return null;
    out[key] = date;
  }
  for (const key of extra) {
    const date = toDate(record[key]);
    if (date) out[key] = date;
  }
  return out;
}

/**
 * Checks the payload has the shape the reference's schema demands (session: id, userId,
 * token, expiresAt; user: id, email, name; both with createdAt and updatedAt) and revives
 * its dates. The payload is already authenticated; this guards the code that reads it.
 * Unlike the reference, which turns every ISO-looking string into a Date (so a user named
 * "2024-01-01T00:00:00Z" fails its own schema), only date fields are revived.
 */
function parsePayload(value: Record<string, unknown>, dates: CacheDateFields): CookieCachePayload | null {
  const { session, user, updatedAt, version } = value;
  if (!isRecord(session) || !isRecord(user) || typeof updatedAt !== "number") return null;
  if (version !== undefined && typeof version !== "string") return null;
  if (typeof session.id !== "string" || typeof session.userId !== "string" || typeof session.token !== "string") return null;
  if (!optionalText(session.ipAddress) || !optionalText(session.userAgent)) return null;
  if (typeof user.id !== "string" || typeof user.email !== "string" || typeof user.name !== "string") return null;
  if (!optionalText(user.image)) return null;
  if (user.emailVerified !== undefined && typeof user.emailVerified !== "boolean") return null;
  const revivedSession = reviveDates(session, ["expiresAt", "createdAt", "updatedAt"], dates.session);
  const revivedUser = reviveDates(user, ["createdAt", "updatedAt"], dates.user);
  if (!revivedSession || !revivedUser) return null;
  // The reference's schema defaults a missing emailVerified to false.
  revivedUser.emailVerified ??= false;
  return {
    session: revivedSession as Session,
    user: revivedUser as User,
    updatedAt,
    ...(version !== undefined && { version }),
  };
}
