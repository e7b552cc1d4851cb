import type { EndpointContext } from "../api/context.js";
import type { SessionWithUser } from "../db/internal-adapter.js";
import type { Account, User } from "../db/models.js";
import { APIError } from "../errors/api-error.js";
import { getClientIP } from "../ip.js";
import { assertValidUserInfo, type UserProvisioningSource } from "../security/validate-user-info.js";
import { mailVerificationLink } from "../mail/verification-mail.js";
import {
  callbackErrorRedirect,
  defaultErrorURL,
  OAUTH_CALLBACK_ERROR_CODES as E,
} from "./callback-errors.js";
import { storedTokens } from "./token-storage.js";
import { trustedProviders } from "./providers.js";
import {
  additionalFieldsFromProfile,
  applyUpdateUserInfoOnLink,
  type OAuthAccountInput,
  type OAuthUserInput,
} from "./user-fields.js";
import { createOAuthUser } from "./create-oauth-user.js";

/** What {@link signInOAuthUser} needs besides the request. */
export interface OAuthSignInInput {
  userInfo: OAuthUserInput;
  account: OAuthAccountInput;
  callbackURL?: string | undefined;
  /** Refuse to create a user (`disableSignUp`, or implicit sign-up off without `requestSignUp`). */
  disableSignUp?: boolean | undefined;
  overrideUserInfo?: boolean | undefined;
  /** The provider's `requireEmailVerification`. */
  requireEmailVerification?: boolean | undefined;
  source: UserProvisioningSource;
  /**
   * The provider vouches for this email although it is not in `trustedProviders` (SSO: a
   * verified domain covering it): implicit linking proceeds without the provider's
   * `email_verified`, as for a trusted provider.
   */
  isTrustedProvider?: boolean | undefined;
  /**
   * The user an application chose for this identity (SSO's `resolveUser` answering `link`):
   * signed in without implicit-linking rules; an account of the identity owned by someone else
   * is a 409 `account_ownership_conflict`, an unknown user a 404 `user_not_found`. `profile:
   * "update"` writes the provider's profile onto the user (`overrideUserInfo` is then ignored).
   */
  selectedUser?: SelectedOAuthUser | undefined;
  /**
   * Refuse (409 `account_hook_binding_conflict`, `session_hook_user_conflict`) when a database
   * hook changed the written account's provider, account id or user, or the session's user.
   * Implied by `selectedUser`.
   */
  requireExactAccountBinding?: boolean | undefined;
  /**
   * When given, verification mails are queued here instead of sent (the caller sends them once
   * its transaction committed).
   */
  deferredMail?: ((ctx: EndpointContext) => Promise<void>)[] | undefined;
}

/** A user an application selected for an OAuth identity. */
export interface SelectedOAuthUser {
  userId: string;
  profile: "preserve" | "update";
}

const bindingConflict = (code: string, message: string) => new APIError("CONFLICT", { code, message });
const ACCOUNT_BINDING = [
  "account_hook_binding_conflict",
  "Account hook changed the selected authentication binding",
] as const;

/** Whether a written account row still binds this identity to this user. */
const bindsExactly = (row: Account, key: { providerId: string; accountId: string }, userId: string) =>
  row.providerId === key.providerId && row.accountId === key.accountId && row.userId === userId;

/** A session, or the callback error code explaining why there is none. */
export type OAuthSignInResult =
  | { error: null; data: SessionWithUser; isRegister: boolean }
  | { error: string; data: null; isRegister: boolean };

const failed = (error: string, isRegister = false): OAuthSignInResult => ({ error, data: null, isRegister });

/**
 * Storage failed in a way that makes the account's owner unknowable (duplicate
 * `(providerId, accountId)` rows, a broken lookup): 302 `internal_server_error` to
 * `onAPIError.errorURL`, never to the flow's own error URL (spec, OAuth callback error codes).
 */
function storageFailure(ctx: EndpointContext, error: unknown): APIError {
  ctx.context.logger.error("OAuth sign-in could not resolve the account's user", error);
  return callbackErrorRedirect(ctx, defaultErrorURL(ctx), E.INTERNAL_SERVER_ERROR);
}

/** A provider email the user already has, now reported verified, verifies the user's. */
async function adoptVerifiedEmail(ctx: EndpointContext, user: User, info: OAuthUserInput): Promise<User> {
  if (!info.emailVerified || user.emailVerified || info.email.toLowerCase() !== user.email) return user;
  return (await ctx.context.internalAdapter.updateUser(user.id, { emailVerified: true }, ctx)) ?? user;
}

/**
 * Signs a provider identity in: the user owning the account, else (implicit linking) the
 * user with that email, else a new user; then a session. Implicit linking needs a trusted
 * provider or a provider-verified email, and (by default) a verified local email: otherwise
 * anyone controlling an unverified address at some provider could take over the local
 * account that uses it (`unable_to_link_account`).
 */
export async function signInOAuthUser(
  ctx: EndpointContext,
  input: OAuthSignInInput,
): Promise<OAuthSignInResult> {
  const { userInfo, account } = input;
  const auth = ctx.context;
  const key = { providerId: account.providerId, accountId: account.accountId };
  let owner;
  try {
    owner = await auth.internalAdapter.findAccountOwnerByKey(key);
  } catch (error) {
    throw storageFailure(ctx, error);
  }
  if (owner?.kind === "orphaned") {
    auth.logger.error("An OAuth account references a missing user; repair it before the user can sign in.");
    return failed(E.UNABLE_TO_LINK_ACCOUNT);
  }
  let user: User | null = owner?.user ?? null;
  let linked: Account | null = owner?.account ?? null;
  const selected = input.selectedUser;
  const exact = !!selected || input.requireExactAccountBinding === true;
  if (selected) {
    // The application's choice replaces the email lookup; the account's owner still wins.
    if (user && user.id !== selected.userId)
      throw new APIError("CONFLICT", {
        code: "account_ownership_conflict",
        message: "Account is already linked to another user",
      });
    if (!user) {
      user = await auth.internalAdapter.findUserById(selected.userId);
      if (!user) throw new APIError("NOT_FOUND", { code: "user_not_found", message: "User not found" });
    }
  } else if (!user) {
    let found;
    try {
      found = await auth.internalAdapter.findUserByEmail(userInfo.email, { includeAccounts: true });
    } catch (error) {
      throw storageFailure(ctx, error);
    }
    user = found?.user ?? null;
    linked =
      found?.accounts.find((a) => a.providerId === key.providerId && a.accountId === key.accountId) ?? null;
  }
  const isRegister = !user;
  const validate = auth.options.user?.validateUserInfo;
  const { id: _accountId, ...providerUser } = userInfo;

  if (user && !linked) {
    const linking = auth.options.account?.accountLinking;
    const trusted =
      input.isTrustedProvider === true ||
      (await trustedProviders(auth, ctx.request)).includes(key.providerId);
    if (
      !selected &&
      ((!trusted && !userInfo.emailVerified) ||
        ((linking?.requireLocalEmailVerified ?? true) && !user.emailVerified) ||
        linking?.enabled === false ||
        linking?.disableImplicitLinking === true)
    ) {
      // The reference calls this `account_not_linked`; the spec renamed it.
      return failed(E.UNABLE_TO_LINK_ACCOUNT);
    }
    if (validate) {
      await assertValidUserInfo(
        validate,
        { ...providerUser, id: user.id, email: userInfo.email.toLowerCase() },
        input.source,
        ctx,
        "link-account",
      );
    }
    try {
      const created = await auth.internalAdapter.linkAccount(
        { ...key, userId: user.id, ...(await storedTokens(auth, account)), scope: account.scope },
        ctx,
      );
      if (!created) return failed(E.UNABLE_TO_LINK_ACCOUNT);
      if (exact && !bindsExactly(created, key, user.id)) throw bindingConflict(...ACCOUNT_BINDING);
    } catch (error) {
      if (error instanceof APIError) throw error;
      auth.logger.error("Unable to link account", error);
      return failed(E.UNABLE_TO_LINK_ACCOUNT);
    }
    if (!selected) {
      user = await adoptVerifiedEmail(ctx, user, userInfo);
      user = (await applyUpdateUserInfoOnLink(ctx, user.id, userInfo)) ?? user;
    }
  } else if (user && linked) {
    if (validate) {
      await assertValidUserInfo(
        validate,
        { ...providerUser, id: user.id, email: userInfo.email.toLowerCase() },
        input.source,
        ctx,
        "sign-in",
      );
    }
    // The scope is never rewritten on sign-in: only linking adds to it (spec, account `scope`).
    if (auth.options.account?.updateAccountOnSignIn !== false) {
      const fresh = await storedTokens(auth, account);
      // A throwing store is the same refusal as a null answer: an error redirect, never a 500.
      const updated = Object.keys(fresh).length
        ? await auth.internalAdapter.updateAccount(linked.id, fresh, ctx).catch((error: unknown) => {
            if (error instanceof APIError) throw error;
            auth.logger.error("Unable to update the account on OAuth sign-in", error);
            return null;
          })
        : true;
      if (!updated) return failed(E.UNABLE_TO_UPDATE_ACCOUNT);
      if (exact && updated !== true && !bindsExactly(updated as Account, key, user.id))
        throw bindingConflict(...ACCOUNT_BINDING);
    }
    if (!selected) user = await adoptVerifiedEmail(ctx, user, userInfo);
  }

  if (user && (selected ? selected.profile === "update" : input.overrideUserInfo)) {
    user = await overrideUser(ctx, user, userInfo);
    if (selected && user.id !== selected.userId)
      throw bindingConflict("user_hook_selection_conflict", "User hook changed the selected user");
  }

  if (!user) {
    if (input.disableSignUp) return failed(E.SIGNUP_DISABLED);
    const additional = additionalFieldsFromProfile(ctx, userInfo, "create");
    const created = await createOAuthUser(ctx, providerUser, additional, account, input.source);
    if (!created) return failed(E.UNABLE_TO_CREATE_USER);
    if (exact && !bindsExactly(created.account, key, created.user.id))
      throw bindingConflict(...ACCOUNT_BINDING);
    user = created.user;
  }

  const mail = auth.options.emailVerification;
  if (
    isRegister &&
    !user.emailVerified &&
    (mail?.sendOnSignUp ?? input.requireEmailVerification) &&
    mail?.sendVerificationEmail
  ) {
    await sendOrDefer(ctx, input, user);
  }
  if (input.requireEmailVerification && !user.emailVerified) {
    if (!isRegister && mail?.sendOnSignIn && mail.sendVerificationEmail) await sendOrDefer(ctx, input, user);
    return failed(E.EMAIL_NOT_VERIFIED, isRegister);
  }
  // A throwing store answers `unable_to_create_session` like a refusing hook does (the reference
  // lets the exception through: a 500 on a browser navigation); database-hook APIErrors pass.
  const session = await auth.internalAdapter
    .createSession(
      user.id,
      false,
      { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") },
      ctx,
    )
    .catch((error: unknown) => {
      if (error instanceof APIError) throw error;
      auth.logger.error("Unable to create a session on OAuth sign-in", error);
      return null;
    });
  if (!session) return failed(E.UNABLE_TO_CREATE_SESSION);
  if (exact && session.userId !== user.id)
    throw bindingConflict("session_hook_user_conflict", "Session hook changed the selected user");
  return { error: null, data: { session, user }, isRegister };
}

/** Sends the verification mail now, or queues it for the caller to send (with its own context) after its commit. */
async function sendOrDefer(ctx: EndpointContext, input: OAuthSignInInput, user: User): Promise<void> {
  const send = (sender: EndpointContext) => mailVerificationLink(sender, user, input.callbackURL, true);
  if (input.deferredMail) input.deferredMail.push(send);
  else await send(ctx);
}

/** `overrideUserInfoOnSignIn`: the provider's name, image, mapped fields and email replace the user's. */
async function overrideUser(ctx: EndpointContext, user: User, info: OAuthUserInput): Promise<User> {
  const email = info.email.toLowerCase();
  try {
    const updated = await ctx.context.internalAdapter.updateUser(
      user.id,
      {
        ...additionalFieldsFromProfile(ctx, info, "update"),
        name: info.name,
        image: info.image,
        email,
        // A changed address is only as verified as the provider says; the same one stays verified.
        emailVerified: email === user.email ? user.emailVerified || info.emailVerified : info.emailVerified,
      },
      ctx,
    );
    return updated ?? user;
  } catch (error) {
    if (error instanceof APIError) throw error;
    ctx.context.logger.warn(
      "Could not update user info during OAuth sign-in; keeping the stored user",
      error,
    );
    return user;
  }
}
