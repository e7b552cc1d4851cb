import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Spotify's current user (`GET /v1/me`). */
export interface SpotifyProfile extends Record<string, unknown> {
  id: string;
  display_name: string | null;
  email: string;
  images?: { url: string; height?: number | null; width?: number | null }[];
}

/** Options of the Spotify provider (the reference's, plus `endpoints`). */
export type SpotifyOptions = SocialProviderOptions<SpotifyProfile>;

/**
 * Spotify. Endpoints: `authorization`, `token`, `userInfo` (`api.spotify.com/v1/me`). Sends
 * PKCE; scope `user-read-email`; no prompt or login_hint; the secret goes in the form. The
 * image is the first of the profile's images; Spotify's email is never treated as verified.
 */
export const spotify = defineProvider<SpotifyProfile, SpotifyOptions>({
  id: "spotify",
  name: "Spotify",
  endpoints: {
    authorization: "https://accounts.spotify.com/authorize",
    token: "https://accounts.spotify.com/api/token",
    userInfo: "https://api.spotify.com/v1/me",
  },
  scopes: ["user-read-email"],
  pkce: true,
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<SpotifyProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.display_name || "",
    email: profile.email,
    image: profile.images?.[0]?.url,
    emailVerified: false,
  }),
  subject: (profile) => profile.id,
});
