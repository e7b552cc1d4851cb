import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import { textClaim } from "../id-token-claims.js";
import type { SocialProviderOptions } from "../options.js";

/** LinkedIn's OpenID Connect userinfo (`GET /v2/userinfo`). */
export interface LinkedInProfile extends Record<string, unknown> {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  locale?: { country?: string; language?: string } | string;
  email?: string;
  email_verified?: boolean;
}

/** Options of {@link linkedin}. */
export type LinkedInOptions = SocialProviderOptions<LinkedInProfile>;

/**
 * LinkedIn ("Sign In with LinkedIn using OpenID Connect"). Endpoints: `authorization`,
 * `token`, `userInfo`. Forwards `login_hint`; no PKCE, no `prompt`. The profile is userinfo,
 * the account id its `sub`; `email_verified` counts only when true. No ID-token sign-in.
 */
export const linkedin = defineProvider<LinkedInProfile, LinkedInOptions>({
  id: "linkedin",
  name: "Linkedin",
  endpoints: {
    authorization: "https://www.linkedin.com/oauth/v2/authorization",
    token: "https://www.linkedin.com/oauth/v2/accessToken",
    userInfo: "https://api.linkedin.com/v2/userinfo",
  },
  scopes: ["profile", "email", "openid"],
  loginHint: true,
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<LinkedInProfile>(endpoint("userInfo"), { headers }));
    return profile && textClaim(profile.sub) ? profile : null;
  },
  user: (profile) => ({
    name: profile.name ?? "",
    email: profile.email,
    image: profile.picture,
    emailVerified: profile.email_verified === true,
  }),
  subject: (profile) => profile.sub,
});
