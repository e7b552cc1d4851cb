import type { LatchkeyPlugin } from "@latchkey/core";
import { HAVE_I_BEEN_PWNED_ERROR_CODES } from "./error-codes.js";
import { resolveHaveIBeenPwnedOptions, type HaveIBeenPwnedOptions } from "./options.js";
import { passwordGuard } from "./password-guard.js";

export { HAVE_I_BEEN_PWNED_ERROR_CODES } from "./error-codes.js";
export { DEFAULT_PATHS, DEFAULT_RANGE_URL, type HaveIBeenPwnedOptions } from "./options.js";
export { isPasswordCompromised, PasswordCheckError, type RangeQueryOptions } from "./range-query.js";

/** The plugin object `haveIBeenPwned()` returns. */
export interface HaveIBeenPwnedPlugin extends LatchkeyPlugin<"have-i-been-pwned"> {
  id: "have-i-been-pwned";
  options: HaveIBeenPwnedOptions | undefined;
}

/**
 * Refuses new passwords found in known breaches (Have I Been Pwned's Pwned Passwords, asked by
 * k-anonymity range query) on sign-up, password change and reset.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [haveIBeenPwned()] });
 */
export function haveIBeenPwned(options?: HaveIBeenPwnedOptions): HaveIBeenPwnedPlugin {
  const resolved = resolveHaveIBeenPwnedOptions(options);
  return {
    id: "have-i-been-pwned",
    hooks: { before: [passwordGuard(resolved)] },
    errorCodes: HAVE_I_BEEN_PWNED_ERROR_CODES,
    options,
  };
}
