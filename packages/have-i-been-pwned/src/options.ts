import { DEFAULT_FETCH_TIMEOUT_MS } from "@latchkey/core";

/** The endpoints whose new password is checked when `paths` is not given (reference defaults). */
export const DEFAULT_PATHS: readonly string[] = [
  "/sign-up/email",
  "/change-password",
  "/reset-password",
  "/email-otp/reset-password",
  "/phone-number/reset-password",
  "/admin/create-user",
  "/admin/set-user-password",
];

/** The Pwned Passwords range API (the reference's only choice). */
export const DEFAULT_RANGE_URL = "https://api.pwnedpasswords.com/range/";

/** Options of `haveIBeenPwned()`, under the reference's names. */
export interface HaveIBeenPwnedOptions {
  /** Endpoint paths whose password hashing is preceded by the check. @default DEFAULT_PATHS */
  paths?: string[] | undefined;
  /** The message of the 400 `PASSWORD_COMPROMISED` answer. @default the reference's */
  customPasswordCompromisedMessage?: string | undefined;
  /** `false` turns the check off. @default true */
  enabled?: boolean | undefined;
  /**
   * Latchkey only: the range API's base URL; the five-character hash prefix is appended. A
   * self-hosted mirror, or a local stub in tests. @default "https://api.pwnedpasswords.com/range/"
   */
  rangeURL?: string | undefined;
  /** Latchkey only: milliseconds a range request may take. @default 10000 */
  timeout?: number | undefined;
}

/** The options with defaults applied. */
export interface ResolvedHaveIBeenPwnedOptions {
  paths: ReadonlySet<string>;
  message: string | undefined;
  enabled: boolean;
  rangeURL: string;
  timeout: number;
}

/** Applies the defaults once; a `rangeURL` that is not an http(s) URL is a `TypeError`. */
export function resolveHaveIBeenPwnedOptions(options: HaveIBeenPwnedOptions = {}): ResolvedHaveIBeenPwnedOptions {
  const rangeURL = options.rangeURL ?? DEFAULT_RANGE_URL;
  let protocol = "";
  try {
    protocol = new URL(rangeURL).protocol;
  } catch {
    // reported below
  }
  if (protocol !== "https:" && protocol !== "http:") throw new TypeError("haveIBeenPwned: rangeURL must be an http(s) URL");
  const timeout = options.timeout ?? DEFAULT_FETCH_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new TypeError("haveIBeenPwned: timeout must be a positive number");
  return {
    // `||` as the reference: an empty list means the defaults.
    paths: new Set(options.paths?.length ? options.paths : DEFAULT_PATHS),
    message: options.customPasswordCompromisedMessage || undefined,
    enabled: options.enabled !== false,
    rangeURL: rangeURL.endsWith("/") ? rangeURL : `${rangeURL}/`,
    timeout,
  };
}
