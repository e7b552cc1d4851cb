import { fail, type EndpointContext } from "@latchkey/core";
import * as v from "valibot";

/** `{ password }`, the field optional when password-less users may skip it (reference schemas). */
export const passwordBody = (optional: boolean) => v.object({ password: optional ? v.optional(v.string()) : v.string() });

/**
 * The reference's password gate for the enrollment routes: with `allowPasswordless`, a user
 * without a credential password passes; everyone else must send their password. Missing or
 * wrong → 400 `INVALID_PASSWORD` (a wrong and a missing account cost one hash alike), longer
 * than the configured maximum → 400 `PASSWORD_TOO_LONG`.
 */
export async function assertPassword(
  ctx: EndpointContext,
  userId: string,
  password: string | undefined,
  allowPasswordless: boolean,
): Promise<void> {
  const auth = ctx.context;
  const account = await auth.internalAdapter.findCredentialAccount(userId);
  if (allowPasswordless && !account?.password) return;
  if (!password) throw fail("BAD_REQUEST", "INVALID_PASSWORD");
  if (password.length > auth.password.config.maxPasswordLength) throw fail("BAD_REQUEST", "PASSWORD_TOO_LONG");
  if (!account?.password) {
    await auth.password.hash(password);
    throw fail("BAD_REQUEST", "INVALID_PASSWORD");
  }
  if (!(await auth.password.verify({ hash: account.password, password }))) throw fail("BAD_REQUEST", "INVALID_PASSWORD");
}
