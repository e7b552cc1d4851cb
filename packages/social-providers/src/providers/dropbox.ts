import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** The Dropbox account (`POST /2/users/get_current_account`). */
export interface DropboxProfile extends Record<string, unknown> {
  account_id: string;
  name: {
    given_name?: string;
    surname?: string;
    familiar_name?: string;
    display_name?: string;
    abbreviated_name?: string;
  };
  email: string;
  email_verified: boolean;
  profile_photo_url?: string;
}

/** Options of the Dropbox provider (the reference's, plus `endpoints`). */
export interface DropboxOptions extends SocialProviderOptions<DropboxProfile> {
  /** Sent as `token_access_type`; `offline` asks for a refresh token. */
  accessType?: "offline" | "online" | "legacy" | undefined;
}

/**
 * Dropbox. Endpoints: `authorization`, `token`, `userInfo` (`/2/users/get_current_account`, an
 * RPC called with POST and no body). Sends PKCE; forwards `accessType` as `token_access_type`;
 * no prompt or login_hint; the secret goes in the form. The name is the display name; the
 * email counts as verified when Dropbox says so. The account id is `account_id`.
 */
export const dropbox = defineProvider<DropboxProfile, DropboxOptions>({
  id: "dropbox",
  name: "Dropbox",
  endpoints: {
    authorization: "https://www.dropbox.com/oauth2/authorize",
    token: "https://api.dropboxapi.com/oauth2/token",
    userInfo: "https://api.dropboxapi.com/2/users/get_current_account",
  },
  scopes: ["account_info.read"],
  pkce: true,
  forwardPrompt: false,
  authorizationParams: (options) => ({ token_access_type: options.accessType }),
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile =
      headers && (await fetchJSON<DropboxProfile>(endpoint("userInfo"), { method: "POST", headers }));
    return profile && typeof profile.account_id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.name?.display_name || "",
    email: profile.email,
    emailVerified: profile.email_verified === true,
    image: profile.profile_photo_url,
  }),
  subject: (profile) => profile.account_id,
});
