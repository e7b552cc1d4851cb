import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** The Atlassian account (`GET api.atlassian.com/me`). */
export interface AtlassianProfile extends Record<string, unknown> {
  account_type?: string;
  account_id: string;
  email?: string;
  name: string;
  picture?: string;
  nickname?: string;
  locale?: string;
  extended_profile?: { job_title?: string; organization?: string; department?: string; location?: string };
}

/** Options of the Atlassian provider (the reference's, plus `endpoints`). */
export type AtlassianOptions = SocialProviderOptions<AtlassianProfile>;

/**
 * Atlassian (OAuth 2.0 3LO). Endpoints: `authorization`, `token`, `userInfo`
 * (`api.atlassian.com/me`). Sends PKCE and the prompt option; always asks
 * `audience=api.atlassian.com` (a caller cannot change it); no login_hint; the secret goes in
 * the form. Needs both clientId and clientSecret (a TypeError otherwise). The account id is
 * `account_id`; the email is never treated as verified.
 */
export const atlassian = defineProvider<AtlassianProfile, AtlassianOptions>({
  id: "atlassian",
  name: "Atlassian",
  endpoints: {
    authorization: "https://auth.atlassian.com/authorize",
    token: "https://auth.atlassian.com/oauth/token",
    userInfo: "https://api.atlassian.com/me",
  },
  scopes: ["read:jira-user", "offline_access"],
  pkce: true,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<AtlassianProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.account_id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.name || "",
    email: profile.email,
    image: profile.picture,
    emailVerified: false,
  }),
  subject: (profile) => profile.account_id,
  customize(provider, options) {
    // The reference refuses to start a sign-in without both; here it is a configuration error.
    if (!options.clientId || !options.clientSecret)
      throw new TypeError("Atlassian needs a clientId and a clientSecret.");
    const build = provider.createAuthorizationURL.bind(provider);
    provider.createAuthorizationURL = async (data) => {
      const url = await build(data);
      // Set after the caller's parameters, as the reference does: tokens are for Atlassian's API.
      url.searchParams.set("audience", "api.atlassian.com");
      return url;
    };
  },
});
