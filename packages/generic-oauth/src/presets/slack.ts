import type { GenericOAuthConfig } from "../options.js";
import { fetchProfileJSON } from "../profile.js";
import {
  OPENID_SCOPES,
  passthrough,
  type BaseOAuthProviderOptions,
  type PresetEndpointOptions,
} from "./base.js";

/** Options of {@link slack}. */
export interface SlackOptions extends BaseOAuthProviderOptions, PresetEndpointOptions {}

/** Sign in with Slack (OpenID Connect without discovery): the UserInfo profile, keyed by `sub`. */
export function slack(options: SlackOptions): GenericOAuthConfig<"slack"> {
  const userInfoUrl = options.userInfoUrl ?? "https://slack.com/api/openid.connect.userInfo";
  return {
    providerId: "slack",
    authorizationUrl: options.authorizationUrl ?? "https://slack.com/openid/connect/authorize",
    tokenUrl: options.tokenUrl ?? "https://slack.com/api/openid.connect.token",
    userInfoUrl,
    ...passthrough(options, OPENID_SCOPES),
    accountSubject: ({ profile }) => profile.sub ?? "",
    async getUserInfo(tokens) {
      const profile = await fetchProfileJSON(userInfoUrl, { authorization: `Bearer ${tokens.accessToken}` });
      if (!profile) return null;
      return {
        sub: profile.sub as string | undefined,
        name: profile.name as string | undefined,
        email: profile.email as string | undefined,
        image: (profile.picture ?? profile["https://slack.com/user_image_512"]) as string | undefined,
        emailVerified: profile.email_verified === true,
      };
    },
  };
}
