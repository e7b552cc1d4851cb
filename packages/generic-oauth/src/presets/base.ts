import type { GenericOAuthConfig } from "../options.js";

/** Options every preset passes through to its config (the reference's `BaseOAuthProviderOptions`). */
export type BaseOAuthProviderOptions = Pick<
  GenericOAuthConfig,
  | "clientId"
  | "clientSecret"
  | "tokenEndpointAuth"
  | "scopes"
  | "redirectURI"
  | "endSessionEndpoint"
  | "postLogoutRedirectURI"
  | "disableProviderLogout"
  | "pkce"
  | "disableImplicitSignUp"
  | "disableSignUp"
  | "overrideUserInfo"
>;

/**
 * Latchkey: the vendor endpoints a preset uses, overridable (a corporate proxy, a regional
 * host, a local stand-in in tests). @default the vendor's public endpoints
 */
export type PresetEndpointOptions = Pick<GenericOAuthConfig, "authorizationUrl" | "tokenUrl" | "userInfoUrl">;

/** The passthrough part of a preset's config, with the preset's default scopes. */
export function passthrough(options: BaseOAuthProviderOptions, defaultScopes: string[]) {
  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    tokenEndpointAuth: options.tokenEndpointAuth,
    scopes: options.scopes ?? defaultScopes,
    redirectURI: options.redirectURI,
    endSessionEndpoint: options.endSessionEndpoint,
    postLogoutRedirectURI: options.postLogoutRedirectURI,
    disableProviderLogout: options.disableProviderLogout,
    pkce: options.pkce,
    disableImplicitSignUp: options.disableImplicitSignUp,
    disableSignUp: options.disableSignUp,
    overrideUserInfo: options.overrideUserInfo,
  } satisfies BaseOAuthProviderOptions;
}

/** RFC 6761 §6.4: a stable, never-deliverable address for an account without an email. */
export function placeholderEmail(identifier: string, namespace: string): string {
  const email = `${identifier}@${namespace}.placeholder.invalid`;
  if (!/^[^\s@]+@[a-z0-9.-]+$/i.test(email)) throw new TypeError("Invalid placeholder email");
  return email;
}

/** OpenID presets found by `<issuer>/.well-known/openid-configuration`. */
export const OPENID_SCOPES = ["openid", "profile", "email"];

/** `<issuer>/.well-known/openid-configuration` (OIDC Discovery §4: appended to the issuer path). */
export const wellKnown = (issuer: string): string =>
  `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
