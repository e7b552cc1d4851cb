import * as v from "valibot";
import {
  endpoint,
  findSocialProvider,
  runOAuthCallback,
  sessionMiddleware,
  startRedirectFlow,
  type EndpointContext,
  type OAuthProvider,
} from "@latchkey/core";
import { GENERIC_OAUTH_ERROR_CODES } from "../error-codes.js";

// The 1.0 request bodies: `providerId` where the core routes take `provider`.
const redirectFields = {
  providerId: v.string(),
  callbackURL: v.optional(v.string()),
  errorCallbackURL: v.optional(v.string()),
  disableRedirect: v.optional(v.boolean()),
  scopes: v.optional(v.array(v.string())),
  requestSignUp: v.optional(v.boolean()),
  additionalData: v.optional(v.record(v.string(), v.unknown())),
};
const signInBody = v.object({ ...redirectFields, newUserCallbackURL: v.optional(v.string()) });
const linkBody = v.object(redirectFields);

/** The 1.0 redirect path; legacy flows send it as `redirect_uri`, so the code exchange repeats it. */
export const legacyCallbackPath = (providerId: string): string =>
  `/oauth2/callback/${encodeURIComponent(providerId)}`;

/**
 * The provider as a legacy flow uses it: a Generic OAuth provider only (the 1.0 routes never
 * served built-in ones), returning to the 1.0 path. 400 `PROVIDER_CONFIG_NOT_FOUND`, as 1.0
 * answered, without echoing the id.
 */
async function legacyProvider(
  ctx: EndpointContext,
  ids: Set<string>,
  providerId: string,
): Promise<OAuthProvider> {
  const provider = ids.has(providerId) ? await findSocialProvider(ctx.context, providerId) : null;
  if (!provider) {
    throw GENERIC_OAUTH_ERROR_CODES.fail("PROVIDER_CONFIG_NOT_FOUND", "BAD_REQUEST");
  }
  return { ...provider, callbackPath: legacyCallbackPath(provider.id) };
}

/**
 * The deprecated 1.0 routes, served only with `legacyRoutes: true`. Each runs core's own
 * flow (the one behind `/sign-in/social`, `/callback/:id` and `/link-social`); only the
 * body field name and the redirect path differ.
 */
export function legacyRoutes(providerIds: string[]) {
  const ids = new Set(providerIds);
  const signIn = endpoint("/sign-in/oauth2", { method: "POST", body: signInBody }, async (ctx) =>
    startRedirectFlow(ctx, await legacyProvider(ctx, ids, ctx.body.providerId), ctx.body),
  );
  const callback = endpoint(
    "/oauth2/callback/:id",
    { method: ["GET", "POST"], allowedMediaTypes: ["application/x-www-form-urlencoded", "application/json"] },
    (ctx) => runOAuthCallback(ctx, legacyCallbackPath(ctx.params.id ?? "")),
  );
  const link = endpoint(
    "/oauth2/link",
    { method: "POST", body: linkBody, use: [sessionMiddleware], requireHeaders: true },
    async (ctx) => {
      const { user } = ctx.context.session;
      const provider = await legacyProvider(ctx, ids, ctx.body.providerId);
      return startRedirectFlow(ctx, provider, { ...ctx.body, link: { userId: user.id, email: user.email } });
    },
  );
  // The 1.0 `auth.api` names.
  return { signInWithOAuth2: signIn, oAuth2Callback: callback, oAuth2LinkAccount: link };
}
