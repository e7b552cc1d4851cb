/** A named character class accepted by {@link generateRandomString}. */
export type Alphabet = "a-z" | "A-Z" | "0-9" | "-_";

const ALPHABETS: Record<Alphabet, string> = {
  "a-z": "abcdefghijklmnopqrstuvwxyz",
  "A-Z": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  "0-9": "0123456789",
  "-_": "-_",
};

// The reference's default set is a-z, 0-9, A-Z, -_ in that order (64 URL-safe chars: OAuth
// state, PKCE verifier, nonce). Order only decides which byte maps to which char; the output
// distribution is uniform either way.
const DEFAULT_ALPHABETS: readonly Alphabet[] = ["a-z", "0-9", "A-Z", "-_"];
const ID_ALPHABETS: readonly Alphabet[] = ["a-z", "A-Z", "0-9"];

// `crypto.getRandomValues` refuses more than 65,536 bytes per call (W3C Web Crypto §10.1.1).
const MAX_DRAW = 65_536;

/**
 * Returns `size` characters drawn uniformly from the given alphabets (default: the 64-char
 * URL-safe set a-z 0-9 A-Z -_), using the CSPRNG and rejection sampling.
 */
export function generateRandomString(size: number, ...alphabets: Alphabet[]): string {
  if (!Number.isSafeInteger(size) || size <= 0) throw new RangeError("size must be a positive integer");
  const chars = (alphabets.length > 0 ? alphabets : DEFAULT_ALPHABETS).map((name) => {
    const set = ALPHABETS[name];
    if (set === undefined) throw new TypeError(`unknown alphabet: ${String(name)}`);
    return set;
  });
  const charset = chars.join("");
  const n = charset.length;
  // Rejection sampling: `byte % n` is only uniform over [0, floor(256/n)*n). Bytes at or above
  // that bound are discarded rather than folded in, which would bias the first `256 % n`
  // chars (62 chars → 'a'..'h' would come up 5/4 as often). For n = 64 nothing is rejected.
  const limit = Math.floor(256 / n) * n;
  // Draw twice what we need per call: with n ≥ 36 at most ~3% of bytes are rejected, so one
  // draw almost always suffices.
  const buf = new Uint8Array(Math.min(size * 2, MAX_DRAW));
  let pos = buf.length;
  let out = "";
  while (out.length < size) {
    if (pos === buf.length) {
      crypto.getRandomValues(buf);
      pos = 0;
    }
    const byte = buf[pos++]!;
    if (byte < limit) out += charset[byte % n]!;
  }
  return out;
}

/** Returns a random id: 32 chars (by default) of a-z A-Z 0-9, the reference's row id and session token format. */
export function generateId(size = 32): string {
  return generateRandomString(size, ...ID_ALPHABETS);
}
