import type { EndpointContext } from "../api/context.js";
import type { SessionWithUser } from "../db/internal-adapter.js";
import { APIError } from "../errors/api-error.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { resolveAccountKey } from "./account-key.js";
import { OAUTH_CALLBACK_ERROR_CODES as E, type OAuthCallbackErrorCode } from "./callback-errors.js";
import { signInOAuthUser, type OAuthSignInInput } from "./sign-in-user.js";
import { signInOAuthUserInTransaction, type SelectUserInTransaction } from "./transactional-sign-in.js";
import type { OAuth2Tokens, OAuth2UserInfo, OAuthProvider } from "./types.js";

/**
 * The checks an authorization response must pass before its code is spent: RFC 9207 §2.4 (a
 * response naming another issuer is a mix-up attack; one without `iss` is refused once the
 * provider has said it always sends it) and the nonce binding of providers that need one.
 * Returns the callback error code, or null when the response may proceed.
 */
export async function authorizationResponseError(
  provider: OAuthProvider,
  iss: string | undefined,
  idTokenNonce: string | undefined,
): Promise<OAuthCallbackErrorCode | null> {
  if (iss !== undefined && provider.issuer && iss !== provider.issuer) return E.ISSUER_MISMATCH;
  if (iss === undefined && provider.requiresIssuerParameter && (await provider.requiresIssuerParameter()))
    return E.ISSUER_MISSING;
  if (provider.requiresIdTokenNonce && !idTokenNonce) return E.NONCE_BINDING_MISSING;
  return null;
}

/** Apple's `user` form parameter: a JSON object with the name it shares on first sign-in only. */
function userParameter(
  text: string | undefined,
): { name?: { firstName?: string; lastName?: string }; email?: string } | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as { email?: string })
      : undefined;
  } catch {
    return undefined;
  }
}

/** What a code exchange established: the tokens, the provider's user and profile, and the account row. */
export interface IdentifiedAccount {
  tokens: OAuth2Tokens;
  user: OAuth2UserInfo;
  profile: Record<string, unknown>;
  account: {
    providerId: string;
    accountId: string;
    accessToken?: string | undefined;
    refreshToken?: string | undefined;
    idToken?: string | undefined;
    accessTokenExpiresAt?: Date | undefined;
    refreshTokenExpiresAt?: Date | undefined;
    scope?: string | undefined;
  };
}

/**
 * Spends the code (with the PKCE verifier, RFC 7636 §4.5, and the exact `redirect_uri` of the
 * authorization request, RFC 6749 §4.1.3), reads the provider's user (ID-token claims trusted
 * only with the flow's nonce) and derives the account key from the raw profile. Failures are
 * the callback codes the reference uses: `invalid_code`, `unable_to_get_user_info`.
 */
export async function exchangeAndIdentify(
  ctx: EndpointContext,
  provider: OAuthProvider,
  input: {
    code: string;
    codeVerifier?: string | undefined;
    deviceId?: string | undefined;
    redirectURI: string;
    idTokenNonce?: string | undefined;
    /** Apple's first-sign-in `user` parameter (JSON text; anything but an object is ignored). */
    user?: string | undefined;
  },
): Promise<IdentifiedAccount | { error: OAuthCallbackErrorCode }> {
  let tokens: OAuth2Tokens | null;
  try {
    tokens = await provider.validateAuthorizationCode({
      code: input.code,
      codeVerifier: input.codeVerifier,
      deviceId: input.deviceId,
      redirectURI: input.redirectURI,
    });
  } catch (error) {
    // The message only: a token endpoint's error object may carry the request.
    ctx.context.logger.error(
      "Authorization code exchange failed",
      error instanceof Error ? error.message : undefined,
    );
    return { error: E.INVALID_CODE };
  }
  if (!tokens) return { error: E.INVALID_CODE };
  const info = await provider
    .getUserInfo({ ...tokens, expectedIdTokenNonce: input.idTokenNonce, user: userParameter(input.user) })
    .catch(() => null);
  if (!info?.user) return { error: E.UNABLE_TO_GET_USER_INFO };
  const key = await resolveAccountKey(provider, tokens, info.data).catch(() => null);
  if (!key) return { error: E.UNABLE_TO_GET_USER_INFO };
  return {
    tokens,
    user: info.user,
    profile: info.data as Record<string, unknown>,
    account: {
      ...key,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      idToken: tokens.idToken,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
      scope: tokens.scopes?.join(","),
    },
  };
}

/** A completed OAuth sign-in, as a callback's `afterSignIn` sees it (before the session cookie is set). */
export interface OAuthSignedIn extends SessionWithUser {
  /** The sign-in created the user. */
  isRegister: boolean;
}

/**
 * The end of every OAuth sign-in that arrives by redirect: signs the user in, sets the session
 * cookie and redirects to the callback URL (the new-user URL for a sign-up). A refusal becomes
 * `fail(code)`; an `APIError` from a hook (a rejecting `validateUserInfo`) becomes its code;
 * redirects (`internal_server_error` to the error page) pass through. With `selectUser`, the
 * sign-in's writes run in one transaction after it (`signInOAuthUserInTransaction`).
 */
export async function finishOAuthSignIn(
  ctx: EndpointContext,
  input: OAuthSignInInput,
  fail: (code: string, description?: string) => APIError,
  urls: { callbackURL: string; newUserURL?: string | undefined },
  afterSignIn?: (signedIn: OAuthSignedIn) => Promise<void>,
  selectUser?: SelectUserInTransaction,
): Promise<never> {
  let result;
  try {
    result = selectUser
      ? await signInOAuthUserInTransaction(ctx, input, selectUser)
      : await signInOAuthUser(ctx, input);
  } catch (error) {
    if (error instanceof APIError && error.status !== 302 && typeof error.body?.code === "string") {
      throw fail(error.body.code, error.body.message);
    }
    throw error;
  }
  if (result.error !== null) throw fail(result.error);
  if (afterSignIn) await afterSignIn({ ...result.data, isRegister: result.isRegister });
  await setSessionCookie(ctx, result.data);
  throw ctx.redirect(result.isRegister ? urls.newUserURL || urls.callbackURL : urls.callbackURL);
}
