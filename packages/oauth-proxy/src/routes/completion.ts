import * as v from "valibot";
import {
  APIError,
  assertTrustedCallbackURL,
  callbackErrorRedirect,
  defaultErrorURL,
  endpoint,
  findSocialProvider,
  linkOAuthAccount,
  parseState,
  finishOAuthSignIn,
  type EndpointContext,
  type OAuthAccountInput,
  type OAuthStateData,
} from "@latchkey/core";
import { OAUTH_PROXY_ERROR_CODES as E } from "../error-codes.js";
import type { ResolvedOAuthProxyOptions } from "../options.js";
import { isFresh, openPayload, type ProxyPayload } from "../payload.js";

const query = v.object({ callbackURL: v.string(), profile: v.optional(v.string()) });
type CompletionContext = EndpointContext<undefined, v.InferOutput<typeof query>>;

// Reference: the query's callbackURL is origin-checked even on this GET route.
const checkCallbackURL = (ctx: EndpointContext): Promise<void> =>
  assertTrustedCallbackURL(ctx, (ctx.query as { callbackURL?: string }).callbackURL);

function accountOf(payload: ProxyPayload): OAuthAccountInput {
  const a = payload.account;
  return {
    providerId: a.providerId,
    accountId: a.accountId,
    accessToken: a.accessToken ?? undefined,
    refreshToken: a.refreshToken ?? undefined,
    idToken: a.idToken ?? undefined,
    accessTokenExpiresAt: a.accessTokenExpiresAt ?? undefined,
    refreshTokenExpiresAt: a.refreshTokenExpiresAt ?? undefined,
    scope: a.scope ?? undefined,
  };
}

/** The flow the payload continues; any failure of the state is one `state_mismatch`. */
async function restoreState(ctx: CompletionContext, state: string): Promise<OAuthStateData | null> {
  try {
    // Single use, this browser's state cookie, not expired: as the ordinary callback checks.
    return await parseState(ctx, state);
  } catch (error) {
    if (error instanceof APIError) return null;
    throw error;
  }
}

/**
 * Finishes a proxied flow on the deployment that started it: decrypts and checks the
 * payload, then links the account or signs the user in with core's own logic and redirects.
 * `routeProvider` is the provider the path names (null on the deprecated route).
 */
async function complete(
  ctx: CompletionContext,
  options: ResolvedOAuthProxyOptions,
  routeProvider: string | null,
): Promise<never> {
  const auth = ctx.context;
  const fallback = defaultErrorURL(ctx);
  if (!ctx.query.profile) throw callbackErrorRedirect(ctx, fallback, E.MISSING_PROFILE);
  const opened = await openPayload(options.secret ?? auth.secret, ctx.query.profile);
  if (!opened.payload) {
    auth.logger.warn("Refused an OAuth proxy profile", opened.error);
    throw callbackErrorRedirect(ctx, fallback, opened.error);
  }
  const { payload } = opened;
  const errorURL = payload.errorURL || fallback;
  const fail = (code: string, description?: string): APIError =>
    callbackErrorRedirect(ctx, errorURL, code, description);
  if (routeProvider !== null && routeProvider !== payload.account.providerId) throw fail(E.PROVIDER_MISMATCH);
  if (!isFresh(payload, options.maxAge)) throw fail(E.PAYLOAD_EXPIRED);
  const state = await restoreState(ctx, payload.state);
  if (!state) throw fail(E.STATE_MISMATCH);

  const account = accountOf(payload);
  const userInfo = { ...payload.userInfo, image: payload.userInfo.image ?? undefined };
  if (state.link) {
    const linked = await linkOAuthAccount(ctx, {
      link: state.link,
      userInfo,
      account,
      profile: payload.profile ?? {},
      scopes: payload.scopes ?? payload.account.scope?.split(","),
    });
    if (!linked.linked) throw fail(linked.code, linked.message);
    throw ctx.redirect(payload.callbackURL);
  }
  // The provider's sign-in options, when this deployment configures it too.
  const provider = await findSocialProvider(auth, account.providerId);
  return finishOAuthSignIn(
    ctx,
    {
      userInfo,
      account,
      callbackURL: payload.callbackURL,
      disableSignUp: payload.disableSignUp,
      overrideUserInfo: provider?.options?.overrideUserInfoOnSignIn,
      requireEmailVerification: provider?.options?.requireEmailVerification,
      source: { method: "oauth", oauth: { providerId: account.providerId, profile: payload.profile } },
    },
    fail,
    { callbackURL: payload.callbackURL, newUserURL: payload.newUserURL },
  );
}

/** `GET /callback/:id/oauth-proxy`: the completion route; hooks on callback paths run around it. */
export function completionRoute(options: ResolvedOAuthProxyOptions) {
  return endpoint("/callback/:id/oauth-proxy", { method: "GET", query, use: [checkCallbackURL] }, (ctx) =>
    complete(ctx, options, ctx.params.id ?? ""),
  );
}

/**
 * `GET /oauth-proxy-callback`: the deprecated completion route, which names no provider (so
 * none is checked). Kept for flows whose callback URL was issued before the move.
 */
export function deprecatedCompletionRoute(options: ResolvedOAuthProxyOptions) {
  return endpoint("/oauth-proxy-callback", { method: "GET", query, use: [checkCallbackURL] }, (ctx) =>
    complete(ctx, options, null),
  );
}
