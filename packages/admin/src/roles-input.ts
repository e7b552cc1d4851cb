import { ADMIN_ERROR_CODES } from "./error-codes.js";
import type { ResolvedAdminOptions } from "./options.js";

/**
 * Checks a requested role value (a name or a list of names) and returns it as stored: the
 * names joined by commas. A name that is not a string is 400 `INVALID_ROLE_TYPE`; with
 * `roles` configured, a name that is not one of them is 400
 * `YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE` (without it any name is taken, as in the reference).
 */
export function storedRole(requested: unknown, options: ResolvedAdminOptions): string {
  const names: unknown[] = Array.isArray(requested) ? requested : [requested];
  for (const name of names) {
    if (typeof name !== "string") throw ADMIN_ERROR_CODES.fail("INVALID_ROLE_TYPE", "BAD_REQUEST");
    if (options.customRoles && !Object.hasOwn(options.customRoles, name)) {
      throw ADMIN_ERROR_CODES.fail("YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE", "BAD_REQUEST");
    }
  }
  return names.join(",");
}
