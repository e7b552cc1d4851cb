import {
  callbackErrorRedirect,
  callbackPath,
  constantTimeEqual,
  defaultErrorURL,
  findSocialProvider,
  OAUTH_CALLBACK_ERROR_CODES as E,
  authorizationResponseError,
  exchangeAndIdentify,
  type APIError,
  type EndpointContext,
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
  // RFC 9207 §2.4 and the nonce binding: the ordinary callback's checks, which this hook bypasses.
  const refused = await authorizationResponseError(provider, params.iss, flow.idTokenNonce);
  if (refused) return fail(refused);
  const identified = await exchangeAndIdentify(ctx, provider, {
    code: params.code,
    codeVerifier: flow.codeVerifier,
    deviceId: params.device_id,
    // RFC 6749 §4.1.3: production's own callback, the redirect URI the provider saw.
    redirectURI: `${auth.baseURL}${callbackPath(provider)}`,
    idTokenNonce: flow.idTokenNonce,
    user: params.user,
  });
  if ("error" in identified) return fail(identified.error);
  const { user, profile: providerProfile, account, tokens } = identified;
  if (!user.email) return fail(E.EMAIL_NOT_FOUND);

  let target: URL;
  try {
    target = new URL(flow.callbackURL);
  } catch {
    return fail(E.NO_CALLBACK_URL);
  }
  const profile = await sealPayload(key, {
    userInfo: {
      ...user,
      id: account.accountId,
      email: user.email,
      name: user.name || "",
      image: user.image,
      emailVerified: user.emailVerified,
    },
    profile: providerProfile,
    scopes: tokens.scopes,
    account,
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
