import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Zoom's user object (`GET /v2/users/me`). */
export interface ZoomProfile extends Record<string, unknown> {
  id: string;
  first_name?: string;
  last_name?: string;
  display_name?: string;
  email: string;
  type?: number;
  pic_url?: string;
  /** 1 when Zoom verified the account. */
  verified?: number;
  account_id?: string;
  status?: string;
}

/** Options of the Zoom provider (the reference's, plus `endpoints`). */
export interface ZoomOptions extends SocialProviderOptions<ZoomProfile> {
  /** Send PKCE (S256). @default true */
  pkce?: boolean;
}

/**
 * Zoom. Endpoints: `authorization`, `token`, `userInfo` (`api.zoom.us/v2/users/me`). PKCE unless
 * `pkce: false` (then neither challenge nor verifier is sent; the reference still posts the
 * verifier). No default scopes (Zoom grants the app's configured ones), prompt or login_hint;
 * the secret goes in the form. The name is `display_name`; the email counts as verified when
 * Zoom's `verified` flag is set.
 */
export const zoom = defineProvider<ZoomProfile, ZoomOptions>({
  id: "zoom",
  name: "Zoom",
  endpoints: {
    authorization: "https://zoom.us/oauth/authorize",
    token: "https://zoom.us/oauth/token",
    userInfo: "https://api.zoom.us/v2/users/me",
  },
  scopes: [],
  pkce: (options) => options.pkce !== false,
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<ZoomProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.display_name || "",
    email: profile.email,
    image: profile.pic_url,
    emailVerified: Boolean(profile.verified),
  }),
  subject: (profile) => profile.id,
});
