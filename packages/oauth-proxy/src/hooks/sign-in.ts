import { APIError, createAuthMiddleware, type HookEntry } from "@latchkey/core";
import { originOf, resolveCurrentURL, shouldSkipProxy, stripTrailingSlashes } from "../current-url.js";
import type { ResolvedOAuthProxyOptions } from "../options.js";
import { sealStatePackage } from "../state-package.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof APIError);

// `/sign-in/oauth2` (generic OAuth) is deliberately not matched (spec: not proxied).
/** The routes that start a redirect to a provider: social sign-in and linking. */
const SOCIAL_REDIRECT_START = ["/sign-in/social*", "/link-social"] as const;

/** The proxy's completion URL on `origin` for `provider`, carrying where the user finally goes. */
export function completionURL(
  origin: string,
  basePath: string,
  provider: string,
  callbackURL: string,
): string {
  const path = `${stripTrailingSlashes(origin)}${basePath}/callback/${encodeURIComponent(provider)}/oauth-proxy`;
  return `${path}?callbackURL=${encodeURIComponent(callbackURL)}`;
}

/**
 * Before `/sign-in/social` and `/link-social`: the provider will return to production (its
 * registered redirect URI), and the flow's callback becomes this deployment's completion
 * route, which keeps the caller's `callbackURL` as a parameter.
 */
export function signInBeforeHook(options: ResolvedOAuthProxyOptions): HookEntry {
  return {
    matcher: SOCIAL_REDIRECT_START,
    handler: createAuthMiddleware(async (ctx) => {
      if (shouldSkipProxy(ctx, options)) return;
      const body = ctx.body;
      if (!isRecord(body) || typeof body.provider !== "string" || !body.provider) return;
      // An ID-token sign-in has no redirect to proxy; a malformed callbackURL is validation's to refuse.
      if (body.idToken !== undefined) return;
      if (body.callbackURL !== undefined && typeof body.callbackURL !== "string") return;
      const current = await resolveCurrentURL(ctx, options);
      const basePath = ctx.context.basePath;
      // Without a callbackURL the user lands on this deployment's origin, as without the proxy.
      const finalURL = body.callbackURL || originOf(ctx.context.baseURL) || ctx.context.baseURL;
      if (options.productionURL)
        ctx.context.baseURL = `${stripTrailingSlashes(options.productionURL)}${basePath}`;
      ctx.body = { ...body, callbackURL: completionURL(current.origin, basePath, body.provider, finalURL) };
    }),
  };
}

/**
 * After `/sign-in/social` and `/link-social`: the `state` in the authorization URL becomes
 * an encrypted package holding the state and the flow's stored data, so production can
 * finish the code exchange without this deployment's storage.
 */
export function signInAfterHook(options: ResolvedOAuthProxyOptions): HookEntry {
  return {
    matcher: SOCIAL_REDIRECT_START,
    handler: createAuthMiddleware(async (ctx) => {
      if (shouldSkipProxy(ctx, options)) return;
      const returned = ctx.context.returned;
      if (!isRecord(returned) || typeof returned.url !== "string" || !returned.url) return;
      let url: URL;
      try {
        url = new URL(returned.url);
      } catch {
        return;
      }
      const state = url.searchParams.get("state");
      if (!state) return;
      try {
        const stored = await ctx.context.internalAdapter.findVerificationValue(state);
        if (!stored) {
          ctx.context.logger.warn("No OAuth state found for the proxy");
          return;
        }
        url.searchParams.set(
          "state",
          await sealStatePackage(options.secret ?? ctx.context.secret, state, stored.value),
        );
      } catch (error) {
        // The flow goes on unproxied, as in the reference.
        ctx.context.logger.error(
          "Failed to prepare the OAuth proxy state",
          error instanceof Error ? error.message : undefined,
        );
        return;
      }
      const proxied = url.toString();
      // The reference leaves the Location header on the unproxied URL; a client following it
      // would then reach production with a state production cannot use.
      if (ctx.responseHeaders.has("location")) ctx.setHeader("location", proxied);
      return { ...returned, url: proxied };
    }),
  };
}
