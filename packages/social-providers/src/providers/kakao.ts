import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Kakao's user (`GET /v2/user/me`); the fields used are under `kakao_account`. */
export interface KakaoProfile extends Record<string, unknown> {
  id: number;
  connected_at?: string;
  properties?: Record<string, string>;
  kakao_account?: {
    profile?: {
      nickname?: string;
      profile_image_url?: string;
      thumbnail_image_url?: string;
      is_default_image?: boolean;
    };
    name?: string;
    email?: string;
    is_email_valid?: boolean;
    is_email_verified?: boolean;
    [field: string]: unknown;
  };
}

/** Options of {@link kakao}. */
export type KakaoOptions = SocialProviderOptions<KakaoProfile>;

/**
 * Kakao. Endpoints: `authorization`, `token`, `userInfo`. No PKCE, no `login_hint`, no
 * `prompt`. The account id is the numeric `id`; the name is the profile nickname, else the
 * account name, else empty; the image the profile image, else its thumbnail. The email counts
 * as verified only when Kakao says it is both valid and verified.
 */
export const kakao = defineProvider<KakaoProfile, KakaoOptions>({
  id: "kakao",
  name: "Kakao",
  endpoints: {
    authorization: "https://kauth.kakao.com/oauth/authorize",
    token: "https://kauth.kakao.com/oauth/token",
    userInfo: "https://kapi.kakao.com/v2/user/me",
  },
  scopes: ["account_email", "profile_image", "profile_nickname"],
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<KakaoProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.id === "number" ? profile : null;
  },
  user: (profile) => {
    const account = profile.kakao_account ?? {};
    const card = account.profile ?? {};
    return {
      name: card.nickname || account.name || "",
      email: account.email,
      image: card.profile_image_url || card.thumbnail_image_url,
      emailVerified: account.is_email_valid === true && account.is_email_verified === true,
    };
  },
  subject: (profile) => profile.id,
});
