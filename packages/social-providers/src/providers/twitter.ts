import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";
import { placeholderEmail } from "../placeholder-email.js";

/** The X API v2 user lookup (`GET /2/users/me`), `data` as X answers it. */
export interface TwitterProfile extends Record<string, unknown> {
  data: {
    id: string;
    name: string;
    username: string;
    profile_image_url?: string;
    /** Set from the `confirmed_email` lookup when X shares one. */
    email?: string;
    [field: string]: unknown;
  };
}

/** Options of the Twitter / X provider (the reference's, plus `endpoints`). */
export type TwitterOption = SocialProviderOptions<TwitterProfile>;

/** Profiles whose address came from the `confirmed_email` lookup (X confirmed it). */
const confirmedEmail = new WeakSet<TwitterProfile>();

/** `url` with `user.fields` set (the endpoint may be overridden, so it is parsed, not concatenated). */
const withFields = (url: string, fields: string): string => {
  const parsed = new URL(url);
  parsed.searchParams.set("user.fields", fields);
  return parsed.href;
};

/**
 * Twitter / X (OAuth 2.0 with the X API v2). Endpoints: `authorization`, `token`, `userInfo`
 * (`/2/users/me`). Sends PKCE; authenticates at the token endpoint with HTTP Basic, for the code
 * exchange and refreshes alike. The profile is read twice: once for the avatar, once for
 * `confirmed_email`, which X returns only to apps granted email access; an address from there
 * counts as verified. Without one the user gets `<id>@twitter.placeholder.invalid` (spec,
 * Social sign-in 4; 1.0 used the username). Neither `prompt` nor `login_hint` is sent.
 */
export const twitter = defineProvider<TwitterProfile, TwitterOption>({
  id: "twitter",
  name: "Twitter",
  endpoints: {
    authorization: "https://x.com/i/oauth2/authorize",
    token: "https://api.x.com/2/oauth2/token",
    userInfo: "https://api.x.com/2/users/me",
  },
  scopes: ["users.read", "tweet.read", "offline.access", "users.email"],
  pkce: true,
  forwardPrompt: false,
  tokenAuth: "client_secret_basic",
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    if (!headers) return null;
    const profile = await fetchJSON<TwitterProfile>(withFields(endpoint("userInfo"), "profile_image_url"), {
      headers,
    });
    if (!profile?.data || typeof profile.data.id !== "string") return null;
    // A failed email lookup is not fatal: the reference then falls back to the placeholder.
    const email = await fetchJSON<{ data?: { confirmed_email?: unknown } }>(
      withFields(endpoint("userInfo"), "confirmed_email"),
      { headers },
    );
    const confirmed = email?.data?.confirmed_email;
    if (typeof confirmed === "string" && confirmed) {
      profile.data.email = confirmed;
      confirmedEmail.add(profile);
    }
    return profile;
  },
  user: (profile) => ({
    name: profile.data.name || "",
    email: profile.data.email || placeholderEmail(profile.data.id, "twitter"),
    image: profile.data.profile_image_url,
    emailVerified: confirmedEmail.has(profile),
  }),
  subject: (profile) => profile.data.id,
});
