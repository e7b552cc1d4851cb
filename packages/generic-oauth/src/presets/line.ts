import type { GenericOAuthConfig } from "../options.js";
import { fetchProfileJSON, unverifiedClaims } from "../profile.js";
import {
  OPENID_SCOPES,
  passthrough,
  type BaseOAuthProviderOptions,
  type PresetEndpointOptions,
} from "./base.js";

/** Options of {@link line}. */
export interface LineOptions extends BaseOAuthProviderOptions, PresetEndpointOptions {
  /** Another id for a second LINE channel (e.g. per country). @default "line" */
  providerId?: string;
}

/**
 * LINE Login v2.1 (OpenID Connect without discovery). The profile is the ID token from the
 * token response (trusted over TLS, OIDC Core §3.1.3.7), else UserInfo; accounts are keyed
 * by `sub`. LINE does not verify emails: never trusted as verified.
 */
export function line(options: LineOptions): GenericOAuthConfig {
  const userInfoUrl = options.userInfoUrl ?? "https://api.line.me/oauth2/v2.1/userinfo";
  return {
    providerId: options.providerId ?? "line",
    authorizationUrl: options.authorizationUrl ?? "https://access.line.me/oauth2/v2.1/authorize",
    tokenUrl: options.tokenUrl ?? "https://api.line.me/oauth2/v2.1/token",
    userInfoUrl,
    ...passthrough(options, OPENID_SCOPES),
    accountSubject: ({ profile }) => profile.sub ?? "",
    async getUserInfo(tokens) {
      const profile =
        unverifiedClaims(tokens.idToken) ??
        (await fetchProfileJSON(userInfoUrl, { authorization: `Bearer ${tokens.accessToken}` }));
      if (!profile) return null;
      return {
        sub: profile.sub as string | undefined,
        name: profile.name as string | undefined,
        email: profile.email as string | undefined,
        image: profile.picture as string | undefined,
        emailVerified: false,
      };
    },
  };
}
