import { fail, type EndpointContext } from "@latchkey/core";

/**
 * Refuses a password outside `emailAndPassword.minPasswordLength`..`maxPasswordLength` (UTF-16
 * code units, as the reference counts): 400 `PASSWORD_TOO_SHORT` or `PASSWORD_TOO_LONG`.
 */
export function assertPasswordLength(ctx: EndpointContext, password: string): void {
  const { minPasswordLength, maxPasswordLength } = ctx.context.password.config;
  if (password.length < minPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_SHORT");
  if (password.length > maxPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_LONG");
}
