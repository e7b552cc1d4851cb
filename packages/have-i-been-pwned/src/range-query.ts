import { boundedFetch, hexEncode } from "@latchkey/core";
import { DEFAULT_RANGE_URL } from "./options.js";

/** Where and how long to ask; see `HaveIBeenPwnedOptions`. */
export interface RangeQueryOptions {
  rangeURL?: string | undefined;
  timeout?: number | undefined;
}

/** The range API could not be asked or its answer not read; the caller must not accept the password. */
export class PasswordCheckError extends Error {
  override name = "PasswordCheckError";
}

/** Upper-case hex SHA-1 of the UTF-8 password (the range API's key). */
async function sha1Hex(password: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(password));
  return hexEncode(new Uint8Array(digest)).toUpperCase();
}

/**
 * The breach count of `suffix` in a range answer (`SUFFIX:COUNT` lines; with `Add-Padding`
 * some lines are decoys with count 0). Absent: 0. A count that is not a plain non-negative
 * integer means the answer cannot be trusted.
 */
export function countIn(body: string, suffix: string): number {
  for (const line of body.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon < 0 || line.slice(0, colon).trim().toUpperCase() !== suffix) continue;
    const text = line.slice(colon + 1).trim();
    const count = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(count)) throw new PasswordCheckError("invalid count in range answer");
    return count;
  }
  return 0;
}

/**
 * Whether the password appears in the Pwned Passwords corpus. k-anonymity: only the first five
 * hex characters of its SHA-1 leave this process; the API answers every suffix under that prefix
 * (padded with decoys, `Add-Padding: true`, so the answer's size says nothing either) and the
 * match is made here. The empty password is checked like any other (spec, Plugins table).
 * Throws `PasswordCheckError` when the API cannot be asked.
 */
export async function isPasswordCompromised(password: string, options: RangeQueryOptions = {}): Promise<boolean> {
  const hash = await sha1Hex(password);
  const base = options.rangeURL ?? DEFAULT_RANGE_URL;
  let response: Response;
  try {
    response = await boundedFetch(
      `${base.endsWith("/") ? base : `${base}/`}${hash.slice(0, 5)}`,
      { headers: { "Add-Padding": "true", "User-Agent": "Latchkey Password Checker" } },
      { timeout: options.timeout, maxBytes: 512 * 1024 },
    );
  } catch (cause) {
    throw new PasswordCheckError("range API unreachable", { cause });
  }
  if (!response.ok) throw new PasswordCheckError(`range API answered ${response.status}`);
  return countIn(await response.text(), hash.slice(5)) > 0;
}
