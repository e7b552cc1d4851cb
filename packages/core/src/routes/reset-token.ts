import type { EndpointContext } from "../api/context.js";
import { generateId } from "../crypto/random.js";
import type { User } from "../db/models.js";
import { fail } from "../errors/index.js";

/**
 * A reset token: 24 characters of a-z A-Z 0-9 (~143 bits), the reference's format, so
 * links mailed by either implementation redeem on the other. Spec, "What the service does"
 * 7: reset tokens live in the database, as a verification row.
 */
export const createResetToken = (): string => generateId(24);

/** The verification row identifier of a reset token (`reset-password:<token>`; value: the user id). */
export const resetIdentifier = (token: string): string => `reset-password:${token}`;

/**
 * Spends a reset token and sets the password of its user; returns that user. The new
 * password is hashed (where a plugin such as have-i-been-pwned may still refuse it) while the
 * token is only looked at, so a refused password leaves the link usable for another try
 * (a 4xx writes nothing; the reference spends the token first, DIVERGENCES row 132). Then the
 * token is consumed atomically: a replay, a concurrent second redemption and an expired
 * token all find nothing (400 `INVALID_TOKEN`). A user without a credential account
 * (OAuth-only) gets one.
 */
export async function redeemResetToken(
  ctx: EndpointContext,
  token: string,
  newPassword: string,
): Promise<User> {
  const { internalAdapter, password } = ctx.context;
  const identifier = resetIdentifier(token);
  // An unknown token costs no hash.
  if (!(await internalAdapter.findVerificationValue(identifier))) throw fail("BAD_REQUEST", "INVALID_TOKEN");
  const hash = await password.hash(newPassword);
  const row = await internalAdapter.consumeVerificationValue(identifier);
  if (!row) throw fail("BAD_REQUEST", "INVALID_TOKEN");
  const user = await internalAdapter.findUserById(row.value);
  if (!user) throw fail("BAD_REQUEST", "USER_NOT_FOUND");
  if (await internalAdapter.findCredentialAccount(user.id)) {
    await internalAdapter.updatePassword(user.id, hash, ctx);
  } else {
    await internalAdapter.linkAccount(
      { userId: user.id, providerId: "credential", accountId: user.id, password: hash },
      ctx,
    );
  }
  return user;
}
