import * as v from "valibot";
import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import { toOutput } from "../db/output.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { resolveAccountKey } from "../oauth2/account-key.js";
import { OAUTH_CALLBACK_ERROR_CODES } from "../oauth2/callback-errors.js";
import { supportsIdTokenSignIn, verifyProviderIdToken } from "../oauth2/id-token.js";
import { callbackPath, findSocialProvider } from "../oauth2/providers.js";
import { signInOAuthUser } from "../oauth2/sign-in-user.js";
import { generateRandomString } from "../crypto/random.js";
import { generateState } from "../oauth2/state.js";
import type { OAuthProvider } from "../oauth2/types.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { idTokenFields, socialRedirectFields } from "./social-body.js";

const body = v.object({
  ...socialRedirectFields,
  newUserCallbackURL: v.optional(v.string()),
  idToken: v.optional(
    v.object({
      ...idTokenFields,
      expiresAt: v.optional(v.number()),
      user: v.optional(
        v.object({
          name: v.optional(v.object({ firstName: v.optional(v.string()), lastName: v.optional(v.string()) })),
          email: v.optional(v.string()),
        }),
      ),
    }),
  ),
});

/**
 * Starts a redirect flow: state and PKCE verifier stored, the nonce minted when the provider
 * binds ID tokens to one, and the authorization URL built. Shared by `/sign-in/social` and
 * `/link-social`.
 */
export async function startRedirectFlow(
  ctx: EndpointContext,
  provider: OAuthProvider,
  input: {
    scopes?: string[] | undefined;
    loginHint?: string | undefined;
    additionalParams?: Record<string, string> | undefined;
    additionalData?: Record<string, unknown> | undefined;
    disableRedirect?: boolean | undefined;
    link?: { userId: string; email: string };
  },
): Promise<{ url: string; redirect: boolean }> {
  const idTokenNonce = provider.requiresIdTokenNonce ? generateRandomString(32) : undefined;
  const { state, codeVerifier } = await generateState(ctx, {
    link: input.link,
    additionalData: input.additionalData,
    idTokenNonce,
  });
  const url = await provider.createAuthorizationURL({
    state,
    codeVerifier,
    idTokenNonce,
    redirectURI: `${ctx.context.baseURL}${callbackPath(provider)}`,
    scopes: input.scopes,
    loginHint: input.loginHint,
    additionalParams: input.additionalParams,
  });
  // The reference answers 200 with a Location header (not a 302).
  if (!input.disableRedirect) ctx.setHeader("location", url.toString());
  return { url: url.toString(), redirect: !input.disableRedirect };
}

/**
 * `POST /sign-in/social`: with `idToken`, verifies it and signs the user in (a session, no
 * redirect); otherwise answers the provider's authorization URL to send the browser to.
 */
export const signInSocial = endpoint("/sign-in/social", { method: "POST", body }, async (ctx) => {
  const auth = ctx.context;
  const provider = await findSocialProvider(auth, ctx.body.provider);
  if (!provider) {
    auth.logger.error("Provider not found. Add it to `socialProviders`.");
    throw fail("NOT_FOUND", "PROVIDER_NOT_FOUND");
  }
  const idToken = ctx.body.idToken;
  if (!idToken) return startRedirectFlow(ctx, provider, ctx.body);

  if (!supportsIdTokenSignIn(provider)) throw fail("NOT_FOUND", "ID_TOKEN_NOT_SUPPORTED");
  if (!(await verifyProviderIdToken(provider, idToken.token, idToken.nonce, ctx))) {
    auth.logger.warn("Invalid id token");
    throw fail("UNAUTHORIZED", "INVALID_TOKEN");
  }
  const tokens = {
    idToken: idToken.token,
    accessToken: idToken.accessToken,
    refreshToken: idToken.refreshToken,
  };
  const info = await provider.getUserInfo({ ...tokens, user: idToken.user }).catch(() => null);
  if (!info?.user) throw fail("UNAUTHORIZED", "FAILED_TO_GET_USER_INFO");
  if (!info.user.email) throw fail("UNAUTHORIZED", "USER_EMAIL_NOT_FOUND");
  const key = await resolveAccountKey(provider, tokens, info.data).catch(() => {
    throw fail("UNAUTHORIZED", "FAILED_TO_GET_USER_INFO");
  });
  const result = await signInOAuthUser(ctx, {
    userInfo: {
      ...info.user,
      id: key.accountId,
      email: info.user.email,
      name: info.user.name || "",
      emailVerified: info.user.emailVerified === true,
    },
    account: { ...key, accessToken: idToken.accessToken, idToken: idToken.token },
    callbackURL: ctx.body.callbackURL,
    disableSignUp: (provider.disableImplicitSignUp && !ctx.body.requestSignUp) || provider.disableSignUp,
    requireEmailVerification: provider.options?.requireEmailVerification,
    source: { method: "oauth", oauth: { providerId: provider.id, profile: info.data } },
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
    user: toOutput(auth.schema, "user", result.data.user),
  };
});
