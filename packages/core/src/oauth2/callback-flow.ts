import type { EndpointContext } from "../api/context.js";
import type { APIError } from "../errors/api-error.js";
import { OAUTH_CALLBACK_ERROR_CODES as E } from "./callback-errors.js";
import {
  authorizationResponseError,
  exchangeAndIdentify,
  finishOAuthSignIn,
  type IdentifiedAccount,
  type OAuthSignedIn,
} from "./callback-steps.js";
import { linkOAuthAccount } from "./link-account.js";
import type { OAuthStateData } from "./state.js";
import type { OAuthProvider } from "./types.js";
import type { Adapter } from "../db/adapter.js";
import type { SelectedOAuthUser } from "./sign-in-user.js";

/** What the callback route established before the provider's part of the flow runs. */
export interface CallbackInput {
  /** The flow's state, already taken from storage and checked against this browser. */
  state: OAuthStateData;
  code: string;
  iss?: string | undefined;
  deviceId?: string | undefined;
  /** Apple's `user` parameter (JSON text). */
  user?: string | undefined;
  /** The `redirect_uri` of the authorization request, repeated at the token endpoint (RFC 6749 §4.1.3). */
  redirectURI: string;
  /** Builds the error redirect to the flow's error URL. */
  fail: (code: string, description?: string) => APIError;
  /**
   * Whether the provider vouches for the signed-in email (implicit linking then needs no
   * `email_verified`; SSO passes "a verified domain covers it"). Default: no.
   */
  isTrustedProvider?: ((identified: IdentifiedAccount) => boolean) | undefined;
  /**
   * Runs once the user is signed in, before the session cookie is set and the redirect sent
   * (SSO: `provisionUser`, organization membership). A throw fails the callback.
   */
  afterSignIn?: ((signedIn: OAuthSignedIn, identified: IdentifiedAccount) => Promise<void>) | undefined;
  /**
   * Makes the sign-in transactional (not a link flow): asked first inside one database
   * transaction with its adapter, then the user, account and session are written in it with
   * exact account binding; a throw or refusal writes nothing. Its answer may select the user
   * (SSO: `resolveUser`); an `APIError` with a code becomes that callback error. `afterSignIn`
   * runs after the commit.
   */
  selectUserInTransaction?:
    | ((identified: IdentifiedAccount, database: Adapter) => Promise<SelectedOAuthUser | undefined>)
    | undefined;
}

/**
 * The provider's part of `/callback/:id`, once state and code are known: the authorization
 * response checks (RFC 9207 issuer, nonce binding), the code exchange and profile, then
 * either linking the account to the user the state names or signing in. Always throws the
 * 302: to the callback URL (or new-user URL) with a session, or to the error URL.
 */
export async function completeCallback(
  ctx: EndpointContext,
  provider: OAuthProvider,
  input: CallbackInput,
): Promise<never> {
  const { state, fail } = input;
  const refused = await authorizationResponseError(provider, input.iss, state.idTokenNonce);
  if (refused) throw fail(refused);
  const identified = await exchangeAndIdentify(ctx, provider, {
    code: input.code,
    codeVerifier: state.codeVerifier,
    deviceId: input.deviceId,
    redirectURI: input.redirectURI,
    idTokenNonce: state.idTokenNonce,
    user: input.user,
  });
  if ("error" in identified) throw fail(identified.error);
  const { user, profile, account, tokens } = identified;
  if (!state.callbackURL) throw fail(E.NO_CALLBACK_URL);

  if (state.link) {
    const linked = await linkOAuthAccount(ctx, {
      link: state.link,
      userInfo: user,
      account,
      scopes: tokens.scopes,
      profile,
    });
    if (!linked.linked) throw fail(linked.code, linked.message);
    throw ctx.redirect(state.callbackURL);
  }
  if (!user.email) throw fail(E.EMAIL_NOT_FOUND);
  return finishOAuthSignIn(
    ctx,
    {
      userInfo: { ...user, id: account.accountId, email: user.email, name: user.name || "" },
      account,
      callbackURL: state.callbackURL,
      disableSignUp:
        (provider.disableImplicitSignUp && !state.requestSignUp) || provider.options?.disableSignUp,
      overrideUserInfo: provider.options?.overrideUserInfoOnSignIn,
      requireEmailVerification: provider.options?.requireEmailVerification,
      source: { method: "oauth", oauth: { providerId: provider.id, profile } },
      isTrustedProvider: input.isTrustedProvider?.(identified),
    },
    fail,
    { callbackURL: state.callbackURL, newUserURL: state.newUserURL },
    input.afterSignIn && ((signedIn) => input.afterSignIn!(signedIn, identified)),
    input.selectUserInTransaction && ((database) => input.selectUserInTransaction!(identified, database)),
  );
}
