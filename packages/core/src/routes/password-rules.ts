import type { EndpointContext } from "../api/context.js";
import { fail } from "../errors/index.js";

/** Length limits in UTF-16 code units, as the reference counts them. */
export function assertPasswordLength(ctx: EndpointContext, password: string, checkMin = true): void {
  const { minPasswordLength, maxPasswordLength } = ctx.context.password.config;
  if (checkMin && password.length < minPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_SHORT");
  if (password.length > maxPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_LONG");
}
