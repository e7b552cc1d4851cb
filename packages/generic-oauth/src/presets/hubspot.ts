import type { GenericOAuthConfig } from "../options.js";
import { fetchProfileJSON } from "../profile.js";
import { passthrough, type BaseOAuthProviderOptions, type PresetEndpointOptions } from "./base.js";

/** Options of {@link hubspot}. */
export interface HubSpotOptions extends BaseOAuthProviderOptions, PresetEndpointOptions {}

/**
 * HubSpot (plain OAuth 2.0, secret in the form body). The profile is the access-token
 * metadata, `GET <userInfoUrl>/<token>` (HubSpot's API takes the token in the path); `user`
 * is the login email, accounts are keyed by `user_id`. The email is never trusted as verified.
 */
export function hubspot(options: HubSpotOptions): GenericOAuthConfig<"hubspot"> {
  const userInfoUrl = (options.userInfoUrl ?? "https://api.hubapi.com/oauth/v1/access-tokens").replace(
    /\/+$/,
    "",
  );
  return {
    providerId: "hubspot",
    authorizationUrl: options.authorizationUrl ?? "https://app.hubspot.com/oauth/authorize",
    tokenUrl: options.tokenUrl ?? "https://api.hubapi.com/oauth/v1/token",
    userInfoUrl,
    ...passthrough(options, ["oauth"]),
    authentication: "post",
    accountSubject: ({ profile }) => profile.id ?? "",
    async getUserInfo(tokens) {
      if (!tokens.accessToken) return null;
      const info = await fetchProfileJSON(`${userInfoUrl}/${encodeURIComponent(tokens.accessToken)}`, {});
      if (!info) return null;
      const signed = info.signed_access_token as { userId?: unknown } | undefined;
      const id = info.user_id ?? signed?.userId;
      if (typeof id !== "string" && typeof id !== "number") return null;
      const login = typeof info.user === "string" ? info.user : undefined;
      return { id, name: login, email: login, image: undefined, emailVerified: false };
    },
  };
}
