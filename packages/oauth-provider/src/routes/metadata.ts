import { APIError, endpoint } from "@latchkey/core";
import { authorizationServerMetadata, openIdConfiguration } from "../metadata.js";
import type { ResolvedOAuthOptions } from "../options.js";

/**
 * Server-only `auth.api.getOAuthServerConfig()` and `auth.api.getOpenIdConfig()` (404 without
 * the `openid` scope); over HTTP the documents are served by the plugin's request handler.
 */
export function serverMetadataEndpoints(options: ResolvedOAuthOptions) {
  return {
    getOAuthServerConfig: endpoint("/.well-known/oauth-authorization-server", { method: "GET", serverOnly: true }, (ctx) =>
      options.scopes.includes("openid") ? openIdConfiguration(ctx.context, options) : authorizationServerMetadata(ctx.context, options),
    ),
    getOpenIdConfig: endpoint("/.well-known/openid-configuration", { method: "GET", serverOnly: true }, (ctx) => {
      if (!options.scopes.includes("openid")) throw new APIError("NOT_FOUND");
      return openIdConfiguration(ctx.context, options);
    }),
  };
}
