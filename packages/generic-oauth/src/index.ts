import type { LatchkeyPlugin } from "@latchkey/core";
import { checkConfig } from "./config-checks.js";
import { GENERIC_OAUTH_ERROR_CODES } from "./error-codes.js";
import type { GenericOAuthOptions } from "./options.js";
import { providerEntries } from "./registry.js";
import { legacyRoutes } from "./routes/legacy.js";

export type { GenericOAuthConfig, GenericOAuthOptions, GenericOAuthUserInfo } from "./options.js";
export { GENERIC_OAUTH_ERROR_CODES, type GenericOAuthErrorCode } from "./error-codes.js";
export * from "./presets/index.js";

/** The plugin object `genericOAuth()` returns. */
export interface GenericOAuthPlugin extends LatchkeyPlugin<"generic-oauth", ReturnType<typeof legacyRoutes>> {
  id: "generic-oauth";
  options: GenericOAuthOptions;
}

/**
 * Any OAuth 2.0 / OpenID Connect provider by configuration or discovery, as a first-class
 * social provider: sign in with `POST /sign-in/social` (`provider: <providerId>`), return to
 * `/callback/<providerId>`, link with `/link-social`, refresh with the token routes, and log
 * out at the provider from `/sign-out`. With `legacyRoutes: true` the 1.0 routes are served too.
 *
 * @example
 * plugins: [genericOAuth({ config: [keycloak({ issuer, clientId, clientSecret })] })]
 */
export function genericOAuth(options: GenericOAuthOptions): GenericOAuthPlugin {
  for (const c of options.config) checkConfig(c);
  const ids = options.config.map((c) => c.providerId);
  const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
  return {
    id: "generic-oauth",
    errorCodes: GENERIC_OAUTH_ERROR_CODES,
    ...(options.legacyRoutes ? { endpoints: legacyRoutes(ids) } : {}),
    init: (ctx) => {
      // Reference: both only warn; the first entry of an id wins.
      if (duplicates.length)
        ctx.logger.warn(`Duplicate provider IDs found: ${[...new Set(duplicates)].join(", ")}`);
      const existing = new Set(ctx.socialProviders.map((p) => p.id));
      for (const id of new Set(ids))
        if (existing.has(id))
          ctx.logger.warn(`Generic OAuth provider "${id}" shadows a social provider with the same ID`);
      return { socialProviders: providerEntries(options.config, ctx) };
    },
    options,
  };
}
