import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Naver's profile answer (`GET /v1/nid/me`): a result code around the profile. */
export interface NaverProfile extends Record<string, unknown> {
  resultcode: string;
  message: string;
  response: {
    id: string;
    nickname?: string;
    name?: string;
    email?: string;
    gender?: string;
    age?: string;
    birthday?: string;
    birthyear?: string;
    profile_image?: string;
    mobile?: string;
    [field: string]: unknown;
  };
}

/** Options of the Naver provider (the reference's, plus `endpoints`). */
export type NaverOptions = SocialProviderOptions<NaverProfile>;

/**
 * Naver. Endpoints: `authorization`, `token`, `userInfo` (`openapi.naver.com/v1/nid/me`). No PKCE,
 * prompt or login_hint; the secret goes in the form. The profile counts only with result code
 * `"00"` (Naver answers errors with 200). Name is the real name, else the nickname; Naver's
 * email is never treated as verified.
 */
export const naver = defineProvider<NaverProfile, NaverOptions>({
  id: "naver",
  name: "Naver",
  endpoints: {
    authorization: "https://nid.naver.com/oauth2.0/authorize",
    token: "https://nid.naver.com/oauth2.0/token",
    userInfo: "https://openapi.naver.com/v1/nid/me",
  },
  scopes: ["profile", "email"],
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<NaverProfile>(endpoint("userInfo"), { headers }));
    return profile?.resultcode === "00" && typeof profile.response?.id === "string" ? profile : null;
  },
  user: ({ response }) => ({
    name: response.name || response.nickname || "",
    email: response.email,
    image: response.profile_image,
    emailVerified: false,
  }),
  subject: (profile) => profile.response.id,
});
