import { utf8Encode } from "./encoding.js";

/**
 * Compares two strings (as UTF-8) or byte arrays without an early exit on content, so the
 * time taken does not reveal how long a matching prefix an attacker has guessed.
 */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const x = typeof a === "string" ? utf8Encode(a) : a;
  const y = typeof b === "string" ? utf8Encode(b) : b;
  // Seed the accumulator with the length difference instead of returning early, and walk the
  // longer input in full: a length mismatch is then false by the same code path as a
  // content mismatch. Lengths are not secret here (tokens and digests have fixed sizes).
  let diff = x.length ^ y.length;
  const length = Math.max(x.length, y.length);
  for (let i = 0; i < length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
