import { defineProvider } from "../define-provider.js";
import { fetchJSON } from "../fetch-json.js";
import { primaryClientId, type SocialProviderOptions } from "../options.js";

/** VK ID's user info answer (`POST /oauth2/user_info`). */
export interface VkProfile extends Record<string, unknown> {
  user: {
    user_id: string;
    first_name?: string;
    last_name?: string;
    email?: string;
    phone?: number | string;
    avatar?: string;
    sex?: number;
    verified?: boolean;
    birthday?: string;
    [field: string]: unknown;
  };
}

/** Options of the VK ID provider (the reference's, plus `endpoints`). */
export type VkOption = SocialProviderOptions<VkProfile>;

/**
 * VK ID. Endpoints: `authorization`, `token` (`/oauth2/auth`), `userInfo` (`/oauth2/user_info`).
 * Sends PKCE and passes the callback's `device_id` on to the token request, as VK ID requires;
 * no prompt or login_hint. The profile is a form POST of the access token and client id. A
 * profile without an email (unless `mapProfileToUser` supplies one) fails the sign-in with
 * `unable_to_get_user_info`. Besides the name, the user gets VK's `first_name`, `last_name`,
 * `birthday` and `sex` (kept where additional user fields of those names exist).
 */
export const vk = defineProvider<VkProfile, VkOption>({
  id: "vk",
  name: "VK",
  endpoints: {
    authorization: "https://id.vk.com/authorize",
    token: "https://id.vk.com/oauth2/auth",
    userInfo: "https://id.vk.com/oauth2/user_info",
  },
  scopes: ["email", "phone"],
  pkce: true,
  forwardPrompt: false,
  async profile({ tokens, options, endpoint }) {
    if (!tokens.accessToken) return null;
    const profile = await fetchJSON<VkProfile>(endpoint("userInfo"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        access_token: tokens.accessToken,
        client_id: primaryClientId(options.clientId),
      }),
    });
    return profile?.user && profile.user.user_id !== undefined ? profile : null;
  },
  user: ({ user }) => ({
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    image: user.avatar,
    emailVerified: false,
    birthday: user.birthday,
    sex: user.sex,
    name: [user.first_name, user.last_name].filter(Boolean).join(" "),
  }),
  subject: (profile) => profile.user.user_id,
  customize(provider, options) {
    if (options.getUserInfo) return;
    const read = provider.getUserInfo.bind(provider);
    // The reference gives up on VK accounts without an email rather than fail later.
    provider.getUserInfo = async (tokens) => {
      const info = await read(tokens);
      return info?.user.email ? info : null;
    };
  },
});
