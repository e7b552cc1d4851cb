import type { EndpointContext } from "../api/context.js";
import type { User } from "../db/models.js";
import { toOutput } from "../db/output.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { OAUTH_CALLBACK_ERROR_CODES } from "./callback-errors.js";
import { identifyIdToken, type ClientIdToken } from "./id-token-identity.js";
import { signInOAuthUser } from "./sign-in-user.js";
import type { OAuthProvider } from "./types.js";

/** The `/sign-in/social` body fields the ID-token flow reads besides the token. */
export interface IdTokenSignInInput {
  idToken: ClientIdToken;
  callbackURL?: string | undefined;
  requestSignUp?: boolean | undefined;
}

/** The answer of an ID-token sign-in: a session, no redirect. */
export interface IdTokenSignInResult {
  redirect: false;
  token: string;
  url: undefined;
  user: User;
}

/**
 * `POST /sign-in/social` with an `idToken`: verifies it, signs its owner in (existing
 * account, implicit link, or a new user) and sets the session cookie. A refusal of the
 * sign-in is 403 `EMAIL_NOT_VERIFIED` or 401 `OAUTH_LINK_ERROR` with the callback code as
 * its message, as in the reference.
 */
export async function signInWithIdToken(
  ctx: EndpointContext,
  provider: OAuthProvider,
  input: IdTokenSignInInput,
): Promise<IdTokenSignInResult> {
  const { user, profile, key } = await identifyIdToken(ctx, provider, input.idToken);
  const result = await signInOAuthUser(ctx, {
    userInfo: {
      ...user,
      id: key.accountId,
      name: user.name || "",
      emailVerified: user.emailVerified === true,
    },
    account: { ...key, accessToken: input.idToken.accessToken, idToken: input.idToken.token },
    callbackURL: input.callbackURL,
    disableSignUp: (provider.disableImplicitSignUp && !input.requestSignUp) || provider.disableSignUp,
    requireEmailVerification: provider.options?.requireEmailVerification,
    source: { method: "oauth", oauth: { providerId: provider.id, profile } },
  });
  if (result.error !== null) {
    if (result.error === OAUTH_CALLBACK_ERROR_CODES.EMAIL_NOT_VERIFIED)
      throw fail("FORBIDDEN", "EMAIL_NOT_VERIFIED");
    throw new APIError("UNAUTHORIZED", {
      message: result.error.replaceAll("_", " "),
      code: "OAUTH_LINK_ERROR",
    });
  }
  await setSessionCookie(ctx, result.data);
  return {
    redirect: false,
    token: result.data.session.token,
    url: undefined,
    user: toOutput(ctx.context.schema, "user", result.data.user),
  };
}
