import { APIError, type EndpointContext, type HookEntry, type PasswordContext } from "@latchkey/core";
import { HAVE_I_BEEN_PWNED_ERROR_CODES } from "./error-codes.js";
import type { ResolvedHaveIBeenPwnedOptions } from "./options.js";
import { isPasswordCompromised, PasswordCheckError } from "./range-query.js";

/**
 * The hasher a guarded request runs with: the check first, then the real hash. Checking at hash
 * time (as the reference does) means the route's own rules come first: a too-short password
 * is refused as such, a wrong current password on change-password never reaches the API.
 */
function checkingHasher(password: PasswordContext, options: ResolvedHaveIBeenPwnedOptions, ctx: EndpointContext): PasswordContext {
  return {
    ...password,
    hash: async (plain: string) => {
      let compromised: boolean;
      try {
        compromised = await isPasswordCompromised(plain, options);
      } catch (error) {
        if (!(error instanceof PasswordCheckError)) throw error;
        ctx.context.logger.error(`Have I Been Pwned check failed: ${error.message}`);
        // Fail closed with a 503: the password was not judged. The reference answers 500 (row 95).
        throw HAVE_I_BEEN_PWNED_ERROR_CODES.fail("PASSWORD_CHECK_UNAVAILABLE", 503);
      }
      if (compromised) {
        const { PASSWORD_COMPROMISED } = HAVE_I_BEEN_PWNED_ERROR_CODES;
        throw APIError.from("BAD_REQUEST", "PASSWORD_COMPROMISED", options.message ?? PASSWORD_COMPROMISED);
      }
      return password.hash(plain);
    },
  };
}

/**
 * Before any endpoint whose path is listed: the request's password hasher is replaced (on its
 * own context only) by one that asks the range API first. Every password a listed route
 * hashes is checked, the empty one included.
 */
export function passwordGuard(options: ResolvedHaveIBeenPwnedOptions): HookEntry {
  return {
    matcher: "*",
    when: (ctx) => options.enabled && options.paths.has(ctx.path),
    handler: (ctx) => ({ context: { password: checkingHasher(ctx.context.password, options, ctx) } }),
  };
}
