import type { LatchkeyPlugin } from "@latchkey/core";
import { callbackAfterHook, callbackBeforeHook } from "./hooks/callback.js";
import { signInAfterHook, signInBeforeHook } from "./hooks/sign-in.js";
import {
  resolveOAuthProxyOptions,
  type OAuthProxyOptions,
  type ResolvedOAuthProxyOptions,
} from "./options.js";
import { completionRoute, deprecatedCompletionRoute } from "./routes/completion.js";

export type { OAuthProxyOptions, ResolvedOAuthProxyOptions } from "./options.js";
export { OAUTH_PROXY_ERROR_CODES, type OAuthProxyErrorCode } from "./error-codes.js";
export { SKIP_PROXY_HEADER } from "./current-url.js";

/** The plugin object `oAuthProxy()` returns. */
export interface OAuthProxyPlugin
  extends LatchkeyPlugin<
    "oauth-proxy",
    { oAuthProxy: ReturnType<typeof deprecatedCompletionRoute>; oAuthProxyCompletion: ReturnType<typeof completionRoute> }
  > {
  id: "oauth-proxy";
  options: ResolvedOAuthProxyOptions;
}

/**
 * Lets deployments whose URLs are not registered at the providers (previews, local
 * development) use social sign-in: the provider returns to production, which exchanges the
 * code and hands the result, encrypted, back to the deployment that started the flow.
 * Every deployment runs the plugin with the same `productionURL` and secret.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [oAuthProxy({ productionURL: "https://app.example.com" })] });
 */
export function oAuthProxy(options?: OAuthProxyOptions): OAuthProxyPlugin {
  const resolved = resolveOAuthProxyOptions(options);
  return {
    id: "oauth-proxy",
    endpoints: {
      oAuthProxy: deprecatedCompletionRoute(resolved),
      oAuthProxyCompletion: completionRoute(resolved),
    },
    hooks: {
      before: [signInBeforeHook(resolved), callbackBeforeHook(resolved)],
      after: [signInAfterHook(resolved), callbackAfterHook(resolved)],
    },
    options: resolved,
  };
}
