import type { EndpointContext } from "../api/context.js";
import type { Account, User } from "../db/models.js";
import { APIError } from "../errors/api-error.js";
import type { UserProvisioningSource } from "../security/validate-user-info.js";
import { storedTokens } from "./token-storage.js";
import type { OAuthAccountInput, OAuthUserInput } from "./user-fields.js";

/**
 * Creates the user of a first OAuth sign-in and its provider account. Without a transaction
 * across the internal adapter, a failed account insert removes the user again: a user
 * without the account could never sign in with it, and would block its email. Null when a
 * hook vetoed either row or storage failed; API errors (`validateUserInfo`, `MISSING_FIELD`)
 * propagate. Answers both rows as written (after database hooks).
 */
export async function createOAuthUser(
  ctx: EndpointContext,
  info: Pick<OAuthUserInput, "name" | "image" | "email" | "emailVerified">,
  additional: Record<string, unknown>,
  account: OAuthAccountInput,
  source: UserProvisioningSource,
): Promise<{ user: User; account: Account } | null> {
  const auth = ctx.context;
  let user: User | null;
  try {
    user = await auth.internalAdapter.createUser(
      {
        ...additional,
        // Spec, Social sign-in 6: no provider name means an empty name, never the email.
        name: info.name || "",
        image: info.image,
        email: info.email.toLowerCase(),
        emailVerified: info.emailVerified === true,
      },
      ctx,
      source,
    );
  } catch (error) {
    if (error instanceof APIError) throw error;
    auth.logger.error("Unable to create OAuth user", error);
    return null;
  }
  if (!user) return null;
  try {
    const created = await auth.internalAdapter.linkAccount(
      {
        providerId: account.providerId,
        accountId: account.accountId,
        userId: user.id,
        ...(await storedTokens(auth, account)),
        scope: account.scope,
      },
      ctx,
    );
    if (created) return { user, account: created };
  } catch (error) {
    auth.logger.error("Unable to create the OAuth account of a new user", error);
  }
  await auth.adapter.delete({ model: "user", where: [{ field: "id", value: user.id }] });
  return null;
}
