import type { GenericOAuthConfig } from "../options.js";
import { OPENID_SCOPES, passthrough, wellKnown, type BaseOAuthProviderOptions } from "./base.js";

/** Options of {@link okta}. */
export interface OktaOptions extends BaseOAuthProviderOptions {
  /** The authorization server's issuer, e.g. `https://dev-1.okta.com/oauth2/default`. */
  issuer: string;
}

/** Okta, by discovery on the authorization server's issuer; accounts keyed by `sub`. */
export function okta(options: OktaOptions): GenericOAuthConfig<"okta"> {
  return {
    providerId: "okta",
    discoveryUrl: wellKnown(options.issuer),
    ...passthrough(options, OPENID_SCOPES),
  };
}
