import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Vercel's OpenID Connect userinfo answer. */
export interface VercelProfile extends Record<string, unknown> {
  sub: string;
  name?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
}

/** Options of the Vercel provider (the reference's, plus `endpoints`). */
export type VercelOptions = SocialProviderOptions<VercelProfile>;

/**
 * Vercel ("Sign in with Vercel"). Endpoints: `authorization`, `token`
 * (`api.vercel.com/login/oauth/token`), `userInfo` (`api.vercel.com/login/oauth/userinfo`).
 * Sends PKCE; no default scopes (a `scope` is sent only when configured or asked); no prompt
 * or login_hint; the secret goes in the form. No refresh (as in the reference). Name is `name`,
 * else `preferred_username`.
 */
export const vercel = defineProvider<VercelProfile, VercelOptions>({
  id: "vercel",
  name: "Vercel",
  endpoints: {
    authorization: "https://vercel.com/oauth/authorize",
    token: "https://api.vercel.com/login/oauth/token",
    userInfo: "https://api.vercel.com/login/oauth/userinfo",
  },
  scopes: [],
  pkce: true,
  forwardPrompt: false,
  refresh: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<VercelProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.sub === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.name ?? profile.preferred_username ?? "",
    email: profile.email,
    image: profile.picture,
    emailVerified: profile.email_verified ?? false,
  }),
  subject: (profile) => profile.sub,
});
