import * as v from "valibot";
import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import { APIError } from "../errors/api-error.js";
import { resolveAccountKey } from "../oauth2/account-key.js";
import {
  callbackErrorRedirect,
  defaultErrorURL,
  OAUTH_CALLBACK_ERROR_CODES as E,
} from "../oauth2/callback-errors.js";
import { linkOAuthAccount } from "../oauth2/link-account.js";
import { callbackPath, findSocialProvider } from "../oauth2/providers.js";
import { signInOAuthUser } from "../oauth2/sign-in-user.js";
import { parseState } from "../oauth2/state.js";
import type { OAuth2Tokens } from "../oauth2/types.js";
import { setSessionCookie } from "../session/session-cookie.js";
import { startRedirectFlow } from "./sign-in-social.js";

// Every parameter is a single string; anything else (repeated keys, JSON values) is refused.
const params = v.object({
  code: v.optional(v.string()),
  error: v.optional(v.string()),
  device_id: v.optional(v.string()),
  error_description: v.optional(v.string()),
  state: v.optional(v.string()),
  user: v.optional(v.string()),
  iss: v.optional(v.string()),
});
type CallbackParams = v.InferOutput<typeof params>;

function parseJSON(
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

/**
 * `GET|POST /callback/:id`: the provider's redirect back. A POST (`response_mode=form_post`)
 * is turned into a GET of the same parameters, so the browser then carries its SameSite=Lax
 * state cookie (a cross-site POST does not). Every outcome is a 302: to the callback URL
 * with a session, or to an error URL with `?error=<code>`.
 */
export const oauthCallback = endpoint(
  "/callback/:id",
  { method: ["GET", "POST"], allowedMediaTypes: ["application/x-www-form-urlencoded", "application/json"] },
  (ctx) => runOAuthCallback(ctx),
);

/**
 * The callback flow of `/callback/:id`, also run by routes that serve it under another path
 * (Generic OAuth's legacy `/oauth2/callback/:id`). `redirectPath` is the path the provider
 * was told to return to: RFC 6749 §4.1.3 requires the code exchange to repeat that exact
 * `redirect_uri`. @default the provider's `/callback/<id>`
 */
export async function runOAuthCallback(ctx: EndpointContext, redirectPath?: string): Promise<never> {
  const fallback = defaultErrorURL(ctx);
  const object = (value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  const merged = ctx.method === "POST" ? { ...object(ctx.body), ...object(ctx.query) } : object(ctx.query);
  const parsed = v.safeParse(params, merged);
  if (!parsed.success) throw callbackErrorRedirect(ctx, fallback, E.INVALID_CALLBACK_REQUEST);
  if (ctx.method === "POST") {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(parsed.output)) if (value !== undefined) query.set(key, value);
    throw ctx.redirect(
      `${ctx.context.baseURL}${redirectPath ?? `/callback/${encodeURIComponent(ctx.params.id ?? "")}`}?${query}`,
    );
  }
  return handleCallback(ctx, parsed.output, redirectPath);
}

async function handleCallback(
  ctx: EndpointContext,
  query: CallbackParams,
  redirectPath: string | undefined,
): Promise<never> {
  const auth = ctx.context;
  const providerId = ctx.params.id ?? "";
  if (query.state === undefined && query.code) {
    const provider = await findSocialProvider(auth, providerId);
    if (provider?.allowIdpInitiated) {
      // An IdP-initiated login is restarted as a normal flow, so it gets a state and PKCE.
      const flowProvider = redirectPath ? { ...provider, callbackPath: redirectPath } : provider;
      const { url } = await startRedirectFlow(ctx, flowProvider, { disableRedirect: true });
      throw ctx.redirect(url);
    }
  }
  if (!query.state) throw callbackErrorRedirect(ctx, defaultErrorURL(ctx), E.STATE_NOT_FOUND);
  const state = await parseState(ctx, query.state);
  const errorURL = state.errorURL ?? defaultErrorURL(ctx);
  const fail = (code: string, description?: string): APIError =>
    callbackErrorRedirect(ctx, errorURL, code, description);

  // RFC 6749 §4.1.2.1: the provider's own error is passed on to the application.
  if (query.error) throw fail(query.error, query.error_description);
  if (!query.code) throw fail(E.NO_CODE);
  const provider = await findSocialProvider(auth, providerId);
  if (!provider) throw fail(E.PROVIDER_NOT_FOUND);
  // RFC 9207 §2.4: a response naming another issuer is a mix-up attack; one without `iss`
  // is refused once the provider has said it always sends it.
  if (query.iss !== undefined && provider.issuer && query.iss !== provider.issuer)
    throw fail(E.ISSUER_MISMATCH);
  if (
    query.iss === undefined &&
    provider.requiresIssuerParameter &&
    (await provider.requiresIssuerParameter())
  ) {
    throw fail(E.ISSUER_MISSING);
  }
  if (provider.requiresIdTokenNonce && !state.idTokenNonce) throw fail(E.NONCE_BINDING_MISSING);
  const redirectURI = `${auth.baseURL}${redirectPath ?? callbackPath(provider)}`;
  let tokens: OAuth2Tokens | null;
  try {
    // RFC 7636 §4.5: the verifier proves this callback continues the request that sent the challenge.
    tokens = await provider.validateAuthorizationCode({
      code: query.code,
      codeVerifier: state.codeVerifier,
      deviceId: query.device_id,
      redirectURI,
    });
  } catch (error) {
    auth.logger.error("Authorization code exchange failed", error instanceof Error ? error.message : error);
    throw fail(E.INVALID_CODE);
  }
  if (!tokens) throw fail(E.INVALID_CODE);
  const info = await provider
    .getUserInfo({ ...tokens, expectedIdTokenNonce: state.idTokenNonce, user: parseJSON(query.user) })
    .catch(() => null);
  if (!info?.user) throw fail(E.UNABLE_TO_GET_USER_INFO);
  const key = await resolveAccountKey(provider, tokens, info.data).catch(() => null);
  if (!key) throw fail(E.UNABLE_TO_GET_USER_INFO);
  if (!state.callbackURL) throw fail(E.NO_CALLBACK_URL);
  const account = {
    ...key,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    idToken: tokens.idToken,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    scope: tokens.scopes?.join(","),
  };

  if (state.link) {
    const linked = await linkOAuthAccount(ctx, {
      link: state.link,
      userInfo: info.user,
      account,
      scopes: tokens.scopes,
      profile: info.data,
    });
    if (!linked.linked) throw fail(linked.code, linked.message);
    throw ctx.redirect(state.callbackURL);
  }
  if (!info.user.email) throw fail(E.EMAIL_NOT_FOUND);
  let result;
  try {
    result = await signInOAuthUser(ctx, {
      userInfo: { ...info.user, id: key.accountId, email: info.user.email, name: info.user.name || "" },
      account,
      callbackURL: state.callbackURL,
      disableSignUp:
        (provider.disableImplicitSignUp && !state.requestSignUp) || provider.options?.disableSignUp,
      overrideUserInfo: provider.options?.overrideUserInfoOnSignIn,
      requireEmailVerification: provider.options?.requireEmailVerification,
      source: { method: "oauth", oauth: { providerId: provider.id, profile: info.data } },
    });
  } catch (error) {
    // Redirects (internal_server_error) pass through; API errors become `?error=<code>`.
    if (error instanceof APIError && error.status !== 302 && typeof error.body?.code === "string") {
      throw fail(error.body.code, error.body.message);
    }
    throw error;
  }
  if (result.error !== null) throw fail(result.error);
  await setSessionCookie(ctx, result.data);
  throw ctx.redirect(result.isRegister ? state.newUserURL || state.callbackURL : state.callbackURL);
}
