// HOTP (RFC 4226) and TOTP (RFC 6238) with HMAC-SHA-1, the only algorithm authenticator apps
// agree on and the one the reference uses. The HMAC key is the UTF-8 bytes of the stored
// secret string (the reference's choice); the otpauth URI carries those bytes in base32.
import { hmac } from "@noble/hashes/hmac.js";
import { sha1 } from "@noble/hashes/legacy.js";
import { constantTimeEqual, utf8Encode } from "@latchkey/core";

/** The TOTP parameters of one installation. */
export interface TotpParams {
  /** 6 to 8. */
  digits: number;
  /** Step length in seconds (RFC 6238 §4.1 X). */
  period: number;
}

/** Codes accepted on either side of the current step: RFC 6238 §5.2 allows a small window for clock drift. */
export const TOTP_WINDOW = 1;

/** RFC 4226 §5.3: the HOTP value of `counter` under `key`, left-padded to `digits`. */
export function hotp(key: Uint8Array, counter: number, digits: number): string {
  const message = new Uint8Array(8);
  // §5.1: the counter is an 8-byte big-endian integer.
  new DataView(message.buffer).setBigUint64(0, BigInt(counter), false);
  const mac = hmac(sha1, key, message);
  // §5.3 dynamic truncation: the low 4 bits of the last byte pick the offset of a 31-bit word.
  const offset = mac[19]! & 0x0f;
  const word =
    ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(word % 10 ** digits).padStart(digits, "0");
}

/** RFC 6238 §4.2: the time step `T = floor((now - T0) / X)` with T0 = 0. */
export const timeStep = (nowMs: number, period: number): number => Math.floor(nowMs / (period * 1000));

/** The TOTP code of `secret` (the stored string) at `nowMs`. */
export function totpCode(secret: string, params: TotpParams, nowMs = Date.now()): string {
  return hotp(utf8Encode(secret), timeStep(nowMs, params.period), params.digits);
}

/**
 * The time step whose code equals `code` within ±{@link TOTP_WINDOW} steps of now, or null.
 * Every candidate is computed and compared in constant time, so timing does not tell which
 * step (if any) matched.
 */
export function matchTotp(secret: string, code: string, params: TotpParams, nowMs = Date.now()): number | null {
  const key = utf8Encode(secret);
  const current = timeStep(nowMs, params.period);
  let matched: number | null = null;
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if (constantTimeEqual(code, hotp(key, step, params.digits)) && matched === null) matched = step;
  }
  return matched;
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 §6 base32 without padding, as the Key Uri Format wants the secret. */
export function base32NoPad(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * The `otpauth://totp/` URI an authenticator app scans (Google Authenticator Key Uri Format),
 * byte for byte the reference's: label `<issuer>:<account>` percent-encoded, then `secret`,
 * `issuer`, `digits`, `period` as form-encoded query parameters.
 */
export function totpURI(secret: string, issuer: string, account: string, params: TotpParams): string {
  const query = new URLSearchParams({
    secret: base32NoPad(utf8Encode(secret)),
    issuer,
    digits: String(params.digits),
    period: String(params.period),
  });
  return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?${query.toString()}`;
}
