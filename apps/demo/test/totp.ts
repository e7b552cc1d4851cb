import { hotp } from "@latchkey/two-factor";

/**
 * TOTP codes (RFC 6238, 30-second steps, 6 digits) for the base32 `secret` of an otpauth URI,
 * each from a step not used before within the ±1-step window the server accepts: the server
 * takes a code once per step.
 */
export function totpGenerator(secret: string): { next(): string } {
  const key = base32Decode(secret);
  const used = new Set<number>();
  return {
    next() {
      const now = Math.floor(Date.now() / 30_000);
      const step = [now + 1, now, now - 1].find((candidate) => !used.has(candidate));
      if (step === undefined) throw new Error("no unused TOTP step in the window");
      used.add(step);
      return hotp(key, step, 6);
    },
  };
}

/** RFC 4648 base32 without padding, as otpauth URIs carry the secret. */
function base32Decode(text: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text.toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}
