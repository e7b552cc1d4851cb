import {
  callbackErrorRedirect,
  callbackPath,
  constantTimeEqual,
  defaultErrorURL,
  findSocialProvider,
  OAUTH_CALLBACK_ERROR_CODES as E,
  resolveAccountKey,
  type APIError,
  type EndpointContext,
  type OAuth2Tokens,
} from "@latchkey/core";
import { OAUTH_PROXY_ERROR_CODES } from "./error-codes.js";
import { sealPayload } from "./payload.js";
import type { ProxiedFlow, StatePackage } from "./state-package.js";

/** The provider's redirect parameters (query, or form body under `response_mode=form_post`). */
export interface CallbackParams {
  code?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
  device_id?: string | undefined;
  user?: string | undefined;
  iss?: string | undefined;
}

// Apple-style `user` parameter: a JSON object, anything else ignored.
function parseUserParam(text: string | undefined): { email?: string } | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Production's half of a proxied flow: exchanges the code as the ordinary callback would,
 * but creates no user, account or session here. The result is encrypted and handed to the
 * deployment that started the flow, as the redirect this returns.
 */
export async function forwardToOrigin(
  ctx: EndpointContext,
  key: string,
  { pack, flow }: { pack: StatePackage; flow: ProxiedFlow },
  params: CallbackParams,
): Promise<APIError> {
  const auth = ctx.context;
  const errorURL = flow.errorURL || defaultErrorURL(ctx);
  const fail = (code: string, description?: string): APIError =>
    callbackErrorRedirect(ctx, errorURL, code, description);

  // The stored flow names the state it was issued for; a package pairing it with another
  // flow's state is refused before anything is spent.
  if (flow.oauthState !== undefined && !constantTimeEqual(flow.oauthState, pack.state)) {
    auth.logger.warn("OAuth proxy state binding mismatch");
    return fail(OAUTH_PROXY_ERROR_CODES.STATE_MISMATCH);
  }
  // RFC 6749 §4.1.2.1: the provider's own error goes on to the application.
  if (params.error) return fail(params.error, params.error_description);
  if (!params.code) return fail(E.NO_CODE);
  const provider = await findSocialProvider(auth, ctx.params.id ?? "");
  if (!provider) return fail(E.PROVIDER_NOT_FOUND);
  // RFC 9207 §2.4: the same mix-up defence as the ordinary callback, which this hook bypasses.
  if (params.iss !== undefined && provider.issuer && params.iss !== provider.issuer)
    return fail(E.ISSUER_MISMATCH);
  if (
    params.iss === undefined &&
    provider.requiresIssuerParameter &&
    (await provider.requiresIssuerParameter())
  ) {
    return fail(E.ISSUER_MISSING);
  }
  if (provider.requiresIdTokenNonce && !flow.idTokenNonce) return fail(E.NONCE_BINDING_MISSING);

  let tokens: OAuth2Tokens | null;
  try {
    // RFC 6749 §4.1.3: the redirect URI is production's own callback, the one the provider saw.
    tokens = await provider.validateAuthorizationCode({
      code: params.code,
      codeVerifier: flow.codeVerifier,
      deviceId: params.device_id,
      redirectURI: `${auth.baseURL}${callbackPath(provider)}`,
    });
  } catch (error) {
    auth.logger.error("OAuth proxy code exchange failed", error instanceof Error ? error.message : undefined);
    return fail(E.INVALID_CODE);
  }
  if (!tokens) return fail(E.INVALID_CODE);
  const info = await provider
    .getUserInfo({ ...tokens, expectedIdTokenNonce: flow.idTokenNonce, user: parseUserParam(params.user) })
    .catch(() => null);
  if (!info?.user) return fail(E.UNABLE_TO_GET_USER_INFO);
  if (!info.user.email) return fail(E.EMAIL_NOT_FOUND);
  const accountKey = await resolveAccountKey(provider, tokens, info.data).catch(() => null);
  if (!accountKey) return fail(E.UNABLE_TO_GET_USER_INFO);

  let target: URL;
  try {
    target = new URL(flow.callbackURL);
  } catch {
    return fail(E.NO_CALLBACK_URL);
  }
  const profile = await sealPayload(key, {
    userInfo: {
      ...info.user,
      id: accountKey.accountId,
      email: info.user.email,
      name: info.user.name || "",
      image: info.user.image,
      emailVerified: info.user.emailVerified,
    },
    profile: info.data,
    scopes: tokens.scopes,
    account: {
      ...accountKey,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      idToken: tokens.idToken,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
      scope: tokens.scopes?.join(","),
    },
    state: pack.state,
    callbackURL: target.searchParams.get("callbackURL") || flow.callbackURL,
    newUserURL: flow.newUserURL,
    errorURL: flow.errorURL,
    disableSignUp: (provider.disableImplicitSignUp && !flow.requestSignUp) || provider.options?.disableSignUp,
    timestamp: Date.now(),
  });
  target.searchParams.set("profile", profile);
  return ctx.redirect(target.toString());
}
