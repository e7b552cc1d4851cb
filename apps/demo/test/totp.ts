import { hotp } from "@latchkey/two-factor";

const STEP_MS = 30_000;

/**
 * TOTP codes (RFC 6238, 30-second steps, 6 digits) for the base32 `secret` of an otpauth URI,
 * each from a step not used before: the server takes a code once per step. Only the current and
 * the next step are used, never the previous one, which the server stops accepting when a new
 * step begins between typing the code and checking it (the server shares this machine's
 * clock, so it is never behind); when both are spent, the next code waits for a new step.
 */
export function totpGenerator(secret: string): { next(): Promise<string> } {
  const key = base32Decode(secret);
  const used = new Set<number>();
  return {
    async next() {
      for (;;) {
        const now = Math.floor(Date.now() / STEP_MS);
        const step = [now + 1, now].find((candidate) => !used.has(candidate));
        if (step !== undefined) {
          used.add(step);
          return hotp(key, step, 6);
        }
        await new Promise((resolve) => setTimeout(resolve, (now + 1) * STEP_MS - Date.now() + 50));
      }
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
