import type { GenericOAuthConfig } from "../options.js";
import { fetchProfileJSON } from "../profile.js";
import { passthrough, type BaseOAuthProviderOptions, type PresetEndpointOptions } from "./base.js";

/** Options of {@link gumroad}. */
export interface GumroadOptions extends BaseOAuthProviderOptions, PresetEndpointOptions {}

/**
 * Gumroad (plain OAuth 2.0). The profile is `GET /v2/user`'s `user`; accounts are keyed by
 * its `user_id`. Gumroad does not say whether the email is verified: never trusted as such.
 */
export function gumroad(options: GumroadOptions): GenericOAuthConfig<"gumroad"> {
  const userInfoUrl = options.userInfoUrl ?? "https://api.gumroad.com/v2/user";
  return {
    providerId: "gumroad",
    authorizationUrl: options.authorizationUrl ?? "https://gumroad.com/oauth/authorize",
    tokenUrl: options.tokenUrl ?? "https://api.gumroad.com/oauth/token",
    userInfoUrl,
    ...passthrough(options, ["view_profile"]),
    accountSubject: ({ profile }) => profile.id ?? "",
    async getUserInfo(tokens) {
      const body = await fetchProfileJSON(userInfoUrl, { authorization: `Bearer ${tokens.accessToken}` });
      const user = body?.success === true ? (body.user as Record<string, unknown> | undefined) : undefined;
      if (!user || typeof user !== "object") return null;
      return {
        id: user.user_id as string | undefined,
        name: user.name as string | undefined,
        email: user.email as string | undefined,
        image: user.profile_url as string | undefined,
        emailVerified: false,
      };
    },
  };
}
