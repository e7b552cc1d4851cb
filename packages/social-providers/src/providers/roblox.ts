import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";
import { placeholderEmail } from "../placeholder-email.js";

/** Roblox's OpenID Connect userinfo answer. */
export interface RobloxProfile extends Record<string, unknown> {
  sub: string;
  name?: string;
  nickname?: string;
  preferred_username?: string;
  created_at?: number;
  profile?: string;
  picture?: string | null;
}

/** Options of the Roblox provider (the reference's, plus `endpoints`). */
export type RobloxOptions = SocialProviderOptions<RobloxProfile>;

/**
 * Roblox (OAuth 2.0 with OpenID Connect scopes). Endpoints: `authorization`, `token`, `userInfo`.
 * Asks `prompt=select_account consent` unless the options name a prompt; no PKCE or login_hint.
 * Roblox never shares an email: every user gets `<sub>@roblox.placeholder.invalid` (spec,
 * Social sign-in 4; 1.0 used the username), unverified. The name is the nickname, else the
 * username.
 */
export const roblox = defineProvider<RobloxProfile, RobloxOptions>({
  id: "roblox",
  name: "Roblox",
  endpoints: {
    authorization: "https://apis.roblox.com/oauth/v1/authorize",
    token: "https://apis.roblox.com/oauth/v1/token",
    userInfo: "https://apis.roblox.com/oauth/v1/userinfo",
  },
  scopes: ["openid", "profile"],
  defaultPrompt: "select_account consent",
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<RobloxProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.sub === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.nickname || profile.preferred_username || "",
    email: placeholderEmail(profile.sub, "roblox"),
    image: profile.picture ?? undefined,
    emailVerified: false,
  }),
  subject: (profile) => profile.sub,
});
