import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";
import { placeholderEmail } from "../placeholder-email.js";

/** Reddit's identity (`GET /api/v1/me`). */
export interface RedditProfile extends Record<string, unknown> {
  id: string;
  name: string;
  icon_img: string | null;
  has_verified_email: boolean;
  oauth_client_id: string;
  verified: boolean;
}

/** Options of the Reddit provider (the reference's, plus `endpoints`). */
export interface RedditOptions extends SocialProviderOptions<RedditProfile> {
  /** `permanent` asks for a refresh token; Reddit's default is `temporary`. */
  duration?: string | undefined;
}

/** Reddit throttles or refuses API calls without a descriptive User-Agent. */
const USER_AGENT = { "user-agent": "latchkey" };

/**
 * Reddit. Endpoints: `authorization`, `token` (`/api/v1/access_token`), `userInfo`
 * (`oauth.reddit.com/api/v1/me`). Scope `identity`; forwards the `duration` option; no PKCE,
 * prompt or login_hint. The token endpoint takes HTTP Basic client authentication (code
 * exchange and refresh); the code exchange and the profile call send a User-Agent. Reddit
 * shares no email: users get `<id>@reddit.placeholder.invalid`, unverified, unless
 * `mapProfileToUser` supplies an address. The avatar URL loses its query string.
 */
export const reddit = defineProvider<RedditProfile, RedditOptions>({
  id: "reddit",
  name: "Reddit",
  endpoints: {
    authorization: "https://www.reddit.com/api/v1/authorize",
    token: "https://www.reddit.com/api/v1/access_token",
    userInfo: "https://oauth.reddit.com/api/v1/me",
  },
  scopes: ["identity"],
  forwardPrompt: false,
  authorizationParams: (options) => ({ duration: options.duration }),
  tokenAuth: "client_secret_basic",
  tokenHeaders: USER_AGENT,
  async profile({ tokens, endpoint }) {
    const auth = bearer(tokens.accessToken);
    const profile =
      auth && (await fetchJSON<RedditProfile>(endpoint("userInfo"), { headers: { ...auth, ...USER_AGENT } }));
    return profile && typeof profile.id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.name || "",
    image: profile.icon_img?.split("?")[0],
    email: placeholderEmail(profile.id, "reddit"),
    emailVerified: false,
  }),
  subject: (profile) => profile.id,
});
