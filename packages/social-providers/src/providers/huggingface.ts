import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Hugging Face's OpenID Connect userinfo answer. */
export interface HuggingFaceProfile extends Record<string, unknown> {
  sub: string;
  name?: string;
  preferred_username?: string;
  profile?: string;
  picture?: string;
  website?: string;
  email?: string;
  email_verified?: boolean;
  isPro?: boolean;
  canPay?: boolean;
  orgs?: { sub: string; name: string; picture: string; preferred_username: string }[];
}

/** Options of the Hugging Face provider (the reference's, plus `endpoints`). */
export type HuggingFaceOptions = SocialProviderOptions<HuggingFaceProfile>;

/**
 * Hugging Face (OpenID Connect). Endpoints: `authorization`, `token`, `userInfo`
 * (`/oauth/userinfo`). Sends PKCE; no prompt or login_hint; the secret goes in the form.
 * Name is `name`, else `preferred_username`; the account id is `sub`.
 */
export const huggingface = defineProvider<HuggingFaceProfile, HuggingFaceOptions>({
  id: "huggingface",
  name: "Hugging Face",
  endpoints: {
    authorization: "https://huggingface.co/oauth/authorize",
    token: "https://huggingface.co/oauth/token",
    userInfo: "https://huggingface.co/oauth/userinfo",
  },
  scopes: ["openid", "profile", "email"],
  pkce: true,
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<HuggingFaceProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.sub === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.name || profile.preferred_username || "",
    email: profile.email,
    image: profile.picture,
    emailVerified: profile.email_verified ?? false,
  }),
  subject: (profile) => profile.sub,
});
