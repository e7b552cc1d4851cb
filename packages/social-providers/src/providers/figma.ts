import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** The Figma user (`GET /v1/me`). */
export interface FigmaProfile extends Record<string, unknown> {
  id: string;
  email: string;
  handle: string;
  img_url: string;
}

/** Options of the Figma provider (the reference's, plus `endpoints`). */
export type FigmaOptions = SocialProviderOptions<FigmaProfile>;

/**
 * Figma. Endpoints: `authorization` (`www.figma.com/oauth`), `token`, `userInfo` (`/v1/me`).
 * Sends PKCE; scope `current_user:read`; no prompt or login_hint. The token endpoint takes HTTP
 * Basic client authentication (code exchange and refresh). Needs both clientId and
 * clientSecret (a TypeError otherwise). The name is the Figma handle; the email is never
 * treated as verified.
 */
export const figma = defineProvider<FigmaProfile, FigmaOptions>({
  id: "figma",
  name: "Figma",
  endpoints: {
    authorization: "https://www.figma.com/oauth",
    token: "https://api.figma.com/v1/oauth/token",
    userInfo: "https://api.figma.com/v1/me",
  },
  scopes: ["current_user:read"],
  pkce: true,
  forwardPrompt: false,
  tokenAuth: "client_secret_basic",
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<FigmaProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.handle || "",
    email: profile.email,
    image: profile.img_url,
    emailVerified: false,
  }),
  subject: (profile) => profile.id,
  customize(_provider, options) {
    // The reference refuses to start a sign-in without both; here it is a configuration error.
    if (!options.clientId || !options.clientSecret)
      throw new TypeError("Figma needs a clientId and a clientSecret.");
  },
});
