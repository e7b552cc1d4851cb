import {
  APIError,
  createAuthMiddleware,
  isTrustedOrigin,
  type EndpointContext,
  type HookEntry,
} from "@latchkey/core";
import { forwardToOrigin, type CallbackParams } from "../code-exchange.js";
import { productionOrigin, trustedOriginList } from "../current-url.js";
import type { ResolvedOAuthProxyOptions } from "../options.js";
import { openStatePackage } from "../state-package.js";

/** The hooks run around core's OAuth callback only. */
const CALLBACK = ["/callback/:id"] as const;

const PARAM_NAMES = ["code", "error", "error_description", "device_id", "user", "iss"] as const;

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** The redirect parameters, query over form body; null when one is not a single string. */
function callbackParams(ctx: EndpointContext): (CallbackParams & { state?: unknown }) | null {
  const merged = { ...asRecord(ctx.body), ...asRecord(ctx.query) };
  const params: CallbackParams = {};
  for (const name of PARAM_NAMES) {
    const value = merged[name];
    if (value === undefined) continue;
    if (typeof value !== "string") return null;
    params[name] = value;
  }
  return { ...params, state: merged.state };
}

/**
 * Before `/callback/:id` on production: a `state` that opens as a proxy package belongs to a
 * flow another deployment started. The code is exchanged here and the browser sent back to
 * that deployment's completion route with the result encrypted. Any other state is left to
 * the ordinary callback.
 */
export function callbackBeforeHook(options: ResolvedOAuthProxyOptions): HookEntry {
  return {
    matcher: CALLBACK,
    handler: createAuthMiddleware(async (ctx) => {
      const params = callbackParams(ctx);
      if (!params || typeof params.state !== "string" || !params.state) return;
      const key = options.secret ?? ctx.context.secret;
      const opened = await openStatePackage(key, params.state);
      if (!opened) return;
      throw await forwardToOrigin(ctx, key, opened, params);
    }),
  };
}

/**
 * After `/callback/:id`: a flow whose completion URL is on production itself needs no extra
 * hop, so the redirect goes straight to the final callback URL, provided that one is trusted
 * (the inner URL was never origin-checked on its own).
 */
export function callbackAfterHook(options: ResolvedOAuthProxyOptions): HookEntry {
  return {
    matcher: CALLBACK,
    handler: createAuthMiddleware(async (ctx) => {
      const returned = ctx.context.returned;
      const location =
        (returned instanceof APIError ? returned.headers.get("location") : null) ??
        ctx.responseHeaders.get("location");
      if (!location?.startsWith("http")) return;
      if (
        !location.includes("/oauth-proxy?callbackURL") &&
        !location.includes("/oauth-proxy-callback?callbackURL")
      ) {
        return;
      }
      let url: URL;
      try {
        url = new URL(location);
      } catch {
        return;
      }
      if (url.origin !== productionOrigin(ctx, options) || url.searchParams.has("profile")) return;
      const inner = url.searchParams.get("callbackURL");
      if (!inner || !isTrustedOrigin(inner, await trustedOriginList(ctx), true)) return;
      if (ctx.responseHeaders.has("location")) ctx.setHeader("location", inner);
      if (returned instanceof APIError) throw ctx.redirect(inner);
    }),
  };
}
