import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Railway's userinfo answer (`GET /oauth/me`). */
export interface RailwayProfile extends Record<string, unknown> {
  sub: string;
  email: string;
  name?: string;
  picture?: string;
}

/** Options of the Railway provider (the reference's, plus `endpoints`). */
export type RailwayOptions = SocialProviderOptions<RailwayProfile>;

/**
 * Railway. Endpoints: `authorization` (`/oauth/auth`), `token`, `userInfo` (`/oauth/me`), all on
 * `backboard.railway.com`. Sends PKCE; no prompt or login_hint. The token endpoint takes HTTP
 * Basic client authentication (code exchange and refresh). The email is never treated as
 * verified; the account id is `sub`.
 */
export const railway = defineProvider<RailwayProfile, RailwayOptions>({
  id: "railway",
  name: "Railway",
  endpoints: {
    authorization: "https://backboard.railway.com/oauth/auth",
    token: "https://backboard.railway.com/oauth/token",
    userInfo: "https://backboard.railway.com/oauth/me",
  },
  scopes: ["openid", "email", "profile"],
  pkce: true,
  forwardPrompt: false,
  tokenAuth: "client_secret_basic",
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<RailwayProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.sub === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.name || "",
    email: profile.email,
    image: profile.picture,
    emailVerified: false,
  }),
  subject: (profile) => profile.sub,
});
