import type { GenericOAuthConfig } from "../options.js";
import { OPENID_SCOPES, passthrough, type BaseOAuthProviderOptions } from "./base.js";

/** Options of {@link auth0}. */
export interface Auth0Options extends BaseOAuthProviderOptions {
  /** The tenant domain, e.g. `tenant.eu.auth0.com` (a scheme is accepted and ignored). */
  domain: string;
}

/** Auth0, by discovery on the tenant domain; accounts keyed by `sub`. */
export function auth0(options: Auth0Options): GenericOAuthConfig<"auth0"> {
  const withScheme = /^https?:\/\//.test(options.domain) ? options.domain : `https://${options.domain}`;
  return {
    providerId: "auth0",
    discoveryUrl: `https://${new URL(withScheme).host}/.well-known/openid-configuration`,
    ...passthrough(options, OPENID_SCOPES),
  };
}
