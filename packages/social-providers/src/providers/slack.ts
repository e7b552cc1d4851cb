import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Slack's OpenID Connect userinfo answer (`openid.connect.userInfo`). */
export interface SlackProfile extends Record<string, unknown> {
  ok: boolean;
  sub: string;
  "https://slack.com/user_id": string;
  "https://slack.com/team_id"?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  "https://slack.com/team_name"?: string;
  "https://slack.com/team_domain"?: string;
  "https://slack.com/user_image_512"?: string;
}

/** Options of the Slack provider (the reference's, plus `endpoints`). */
export type SlackOptions = SocialProviderOptions<SlackProfile>;

const USER_ID = "https://slack.com/user_id";

/**
 * Slack ("Sign in with Slack", OpenID Connect). Endpoints: `authorization`, `token`
 * (`openid.connect.token`), `userInfo` (`openid.connect.userInfo`). No PKCE, prompt or
 * login_hint; the secret goes in the form. Slack answers errors with 200 and `ok: false`, so a
 * profile without the `https://slack.com/user_id` claim (the account id) fails the sign-in.
 * The image is `picture`, else the 512px avatar.
 */
export const slack = defineProvider<SlackProfile, SlackOptions>({
  id: "slack",
  name: "Slack",
  endpoints: {
    authorization: "https://slack.com/openid/connect/authorize",
    token: "https://slack.com/api/openid.connect.token",
    userInfo: "https://slack.com/api/openid.connect.userInfo",
  },
  scopes: ["openid", "profile", "email"],
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<SlackProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile[USER_ID] === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.name || "",
    email: profile.email,
    emailVerified: profile.email_verified === true,
    image: profile.picture || profile["https://slack.com/user_image_512"],
  }),
  subject: (profile) => profile[USER_ID],
});
