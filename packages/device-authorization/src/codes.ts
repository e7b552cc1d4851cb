import { generateRandomString } from "@latchkey/core";
import { oauthError } from "./error-codes.js";
import type { ResolvedDeviceAuthorizationOptions } from "./options.js";

/** The default user-code alphabet: upper-case letters and digits without I, O, 0 and 1. */
export const USER_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

const MAX_CODE_LENGTH = 191;

/** A default user code: each character one random byte modulo 32 (the alphabet has 32, so uniform). */
function defaultUserCode(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (byte) => USER_CODE_ALPHABET[byte % 32]).join("");
}

/** A generated code must be a string of at most 191 characters, or the request fails (400, as the reference). */
function checked(code: unknown, label: "device" | "user"): string {
  if (typeof code !== "string") throw oauthError("BAD_REQUEST", "invalid_request", `Generated ${label} code must be a string`);
  if (Array.from(code).length > MAX_CODE_LENGTH) {
    throw oauthError("BAD_REQUEST", "invalid_request", `Generated ${label} code must be at most ${MAX_CODE_LENGTH} characters`);
  }
  return code;
}

/** A new device code: `generateDeviceCode()` or `deviceCodeLength` characters of `a-zA-Z0-9`. */
export async function newDeviceCode(options: ResolvedDeviceAuthorizationOptions): Promise<string> {
  const made = options.generateDeviceCode
    ? await options.generateDeviceCode()
    : generateRandomString(options.deviceCodeLength, "a-z", "A-Z", "0-9");
  return checked(made, "device");
}

/** A new user code: `generateUserCode()` or `userCodeLength` characters of the default alphabet. */
export async function newUserCode(options: ResolvedDeviceAuthorizationOptions): Promise<string> {
  const made = options.generateUserCode ? await options.generateUserCode() : defaultUserCode(options.userCodeLength);
  return checked(made, "user");
}

const DEFAULT_ALPHABET_ONLY = new RegExp(`^[${USER_CODE_ALPHABET}]+$`, "i");

/**
 * The second spelling a typed user code is looked up under, if any: without separators and
 * upper-cased (`abcd-efgh` → `ABCDEFGH`), only when that leaves a code of the default
 * alphabet. Custom codes are matched exactly, as the reference does.
 */
export function normalizedUserCode(typed: string): string | undefined {
  const normalized = typed.replace(/[^a-zA-Z0-9]/g, "").toUpperCase();
  if (normalized === typed || !DEFAULT_ALPHABET_ONLY.test(normalized)) return undefined;
  return normalized;
}
