import { fail, type EndpointContext } from "@latchkey/core";

/** The instance's password length limits (`emailAndPassword.min/maxPasswordLength`). */
export function assertPasswordLength(ctx: EndpointContext, password: string, checkMin = true): void {
  const { minPasswordLength, maxPasswordLength } = ctx.context.password.config;
  if (checkMin && password.length < minPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_SHORT");
  if (password.length > maxPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_LONG");
}
