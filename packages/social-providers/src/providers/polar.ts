import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Polar's userinfo answer (`GET /v1/oauth2/userinfo`). */
export interface PolarProfile extends Record<string, unknown> {
  id: string;
  email: string;
  username?: string;
  avatar_url?: string;
  github_username?: string;
  account_id?: string;
  public_name?: string;
  email_verified?: boolean;
  profile_settings?: Record<string, unknown>;
}

/** Options of the Polar provider (the reference's, plus `endpoints`). */
export type PolarOptions = SocialProviderOptions<PolarProfile>;

/**
 * Polar. Endpoints: `authorization`, `token`, `userInfo` (`api.polar.sh/v1/oauth2/userinfo`).
 * Sends PKCE and the prompt option; no login_hint; the secret goes in the form. Name is the
 * public name, else the username; the account id is `id`.
 */
export const polar = defineProvider<PolarProfile, PolarOptions>({
  id: "polar",
  name: "Polar",
  endpoints: {
    authorization: "https://polar.sh/oauth2/authorize",
    token: "https://api.polar.sh/v1/oauth2/token",
    userInfo: "https://api.polar.sh/v1/oauth2/userinfo",
  },
  scopes: ["openid", "profile", "email"],
  pkce: true,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<PolarProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.public_name || profile.username || "",
    email: profile.email,
    image: profile.avatar_url,
    emailVerified: profile.email_verified ?? false,
  }),
  subject: (profile) => profile.id,
});
