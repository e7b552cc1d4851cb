import type { EndpointContext } from "../api/context.js";
import { APIError } from "../errors/api-error.js";
import { assertValidUserInfo } from "../security/validate-user-info.js";
import {
  callbackErrorRedirect,
  defaultErrorURL,
  OAUTH_CALLBACK_ERROR_CODES as E,
} from "./callback-errors.js";
import { trustedProviders } from "./providers.js";
import { mergeScopes } from "./scopes.js";
import { storedTokens } from "./token-storage.js";
import type { OAuth2UserInfo } from "./types.js";
import { applyUpdateUserInfoOnLink, type OAuthAccountInput } from "./user-fields.js";

/** The outcome of linking: done, or a callback error code (and message) to redirect with. */
export type LinkResult = { linked: true } | { linked: false; code: string; message?: string };

/**
 * Completes a `/link-social` redirect flow for the user named in the state. The provider
 * email must be verified (or the provider trusted) and equal the user's (unless
 * `allowDifferentEmails`); an account already owned by another user is refused; an account
 * the user already has gets its tokens and the union of old and new scopes (spec, account
 * `scope`: linking merges).
 */
export async function linkOAuthAccount(
  ctx: EndpointContext,
  input: {
    link: { userId: string; email: string };
    userInfo: OAuth2UserInfo;
    account: OAuthAccountInput;
    scopes: string[] | undefined;
    profile: Record<string, unknown>;
  },
): Promise<LinkResult> {
  const auth = ctx.context;
  const { link, userInfo, account } = input;
  const validate = auth.options.user?.validateUserInfo;
  if (validate) {
    try {
      await assertValidUserInfo(
        validate,
        { ...userInfo, id: link.userId, email: userInfo.email ?? undefined },
        { method: "oauth", oauth: { providerId: account.providerId, profile: input.profile } },
        ctx,
        "link-account",
      );
    } catch (error) {
      if (error instanceof APIError && typeof error.body?.code === "string") {
        return { linked: false, code: error.body.code, message: error.body.message };
      }
      throw error;
    }
  }
  const linking = auth.options.account?.accountLinking;
  const trusted = (await trustedProviders(auth, ctx.request)).includes(account.providerId);
  if ((!trusted && !userInfo.emailVerified) || linking?.enabled === false) {
    auth.logger.warn("Refused to link an account: untrusted provider and unverified email");
    return { linked: false, code: E.UNABLE_TO_LINK_ACCOUNT };
  }
  if (userInfo.email?.toLowerCase() !== link.email.toLowerCase() && linking?.allowDifferentEmails !== true) {
    return { linked: false, code: E.EMAIL_DOES_NOT_MATCH };
  }
  let existing;
  try {
    existing = await auth.internalAdapter.findAccountByKey(account);
  } catch (error) {
    auth.logger.error("Account link could not resolve the account's owner", error);
    throw callbackErrorRedirect(ctx, defaultErrorURL(ctx), E.INTERNAL_SERVER_ERROR);
  }
  const tokens = await storedTokens(auth, account);
  // A throwing store is a refusal like a null answer: an error redirect, never a 500 (the
  // reference lets it through). Database-hook APIErrors pass unchanged.
  const refused = (message: string) => (error: unknown) => {
    if (error instanceof APIError) throw error;
    auth.logger.error(message, error);
    return null;
  };
  if (existing) {
    if (existing.userId !== link.userId)
      return { linked: false, code: E.ACCOUNT_ALREADY_LINKED_TO_DIFFERENT_USER };
    const scope = mergeScopes(existing.scope, input.scopes);
    const updated = await auth.internalAdapter
      .updateAccount(existing.id, { ...tokens, ...(scope ? { scope } : {}) }, ctx)
      .then(() => true, refused("Unable to update the linked account"));
    if (!updated) return { linked: false, code: E.UNABLE_TO_UPDATE_ACCOUNT };
  } else {
    const created = await auth.internalAdapter
      .linkAccount(
        {
          providerId: account.providerId,
          accountId: account.accountId,
          userId: link.userId,
          ...tokens,
          scope: input.scopes?.length ? input.scopes.join(",") : account.scope,
        },
        ctx,
      )
      .catch(refused("Unable to link account"));
    if (!created) return { linked: false, code: E.UNABLE_TO_LINK_ACCOUNT };
  }
  await applyUpdateUserInfoOnLink(ctx, link.userId, userInfo);
  return { linked: true };
}
