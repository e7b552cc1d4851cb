import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** A Kick user (an entry of `GET /public/v1/users`). */
export interface KickProfile extends Record<string, unknown> {
  user_id: number;
  name: string;
  email?: string;
  profile_picture?: string;
}

/** Options of the Kick provider (the reference's, plus `endpoints`). */
export type KickOptions = SocialProviderOptions<KickProfile>;

/**
 * Kick. Endpoints: `authorization`, `token`, `userInfo` (`api.kick.com/public/v1/users`, whose
 * first entry is the token's user). Sends PKCE; scope `user:read`; no prompt or login_hint; the
 * secret goes in the form. The account id is the numeric `user_id`; the email is never treated
 * as verified.
 */
export const kick = defineProvider<KickProfile, KickOptions>({
  id: "kick",
  name: "Kick",
  endpoints: {
    authorization: "https://id.kick.com/oauth/authorize",
    token: "https://id.kick.com/oauth/token",
    userInfo: "https://api.kick.com/public/v1/users",
  },
  scopes: ["user:read"],
  pkce: true,
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const answer = headers && (await fetchJSON<{ data?: KickProfile[] }>(endpoint("userInfo"), { headers }));
    const profile = Array.isArray(answer?.data) ? answer.data[0] : undefined;
    return profile && profile.user_id !== undefined ? profile : null;
  },
  user: (profile) => ({
    name: profile.name || "",
    email: profile.email,
    image: profile.profile_picture,
    emailVerified: false,
  }),
  subject: (profile) => profile.user_id,
});
