import type { GenericOAuthConfig } from "../options.js";
import { OPENID_SCOPES, passthrough, wellKnown, type BaseOAuthProviderOptions } from "./base.js";

/** Options of {@link keycloak}. */
export interface KeycloakOptions extends BaseOAuthProviderOptions {
  /** The realm's issuer, e.g. `https://id.example.com/realms/main`. */
  issuer: string;
}

/** Keycloak, by discovery on the realm's issuer; accounts keyed by `sub`. */
export function keycloak(options: KeycloakOptions): GenericOAuthConfig<"keycloak"> {
  return {
    providerId: "keycloak",
    discoveryUrl: wellKnown(options.issuer),
    ...passthrough(options, OPENID_SCOPES),
  };
}
