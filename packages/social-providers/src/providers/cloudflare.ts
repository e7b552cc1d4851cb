import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** The Cloudflare user (`result` of `GET /client/v4/user`). */
export interface CloudflareProfile extends Record<string, unknown> {
  id: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  country?: string | null;
  telephone?: string | null;
  two_factor_authentication_enabled?: boolean;
  suspended?: boolean;
}

/** Options of the Cloudflare provider (the reference's, plus `endpoints`). */
export interface CloudflareOptions extends SocialProviderOptions<CloudflareProfile> {
  /** Token endpoint client authentication. @default "client_secret_basic" with a secret, "none" without */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | undefined;
}

/** The Cloudflare API's envelope. */
interface CloudflareEnvelope {
  success?: boolean;
  result?: CloudflareProfile | null;
}

/**
 * Cloudflare. Endpoints: `authorization`, `token`, `userInfo` (`api.cloudflare.com/client/v4/user`;
 * Cloudflare's OIDC userinfo holds only `sub`, so the profile comes from the API, which needs
 * the `user-details.read` scope). Sends PKCE; no prompt or login_hint, and no caller-supplied
 * authorization parameters (the reference drops them). Client authentication follows
 * `tokenEndpointAuthMethod`: Basic by default with a secret, `none` for public PKCE clients.
 * A user without first or last name gets an empty name (spec, Social sign-in 6; the reference
 * uses the email). The email is never treated as verified.
 */
export const cloudflare = defineProvider<CloudflareProfile, CloudflareOptions>({
  id: "cloudflare",
  name: "Cloudflare",
  endpoints: {
    authorization: "https://dash.cloudflare.com/oauth2/auth",
    token: "https://dash.cloudflare.com/oauth2/token",
    userInfo: "https://api.cloudflare.com/client/v4/user",
  },
  scopes: ["user-details.read"],
  pkce: true,
  forwardPrompt: false,
  tokenAuth: (options) =>
    options.tokenEndpointAuthMethod === "none"
      ? undefined
      : (options.tokenEndpointAuthMethod ?? "client_secret_basic"),
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const answer = headers && (await fetchJSON<CloudflareEnvelope>(endpoint("userInfo"), { headers }));
    const profile = answer?.success === true ? answer.result : null;
    return profile && typeof profile.id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: [profile.first_name, profile.last_name].filter(Boolean).join(" "),
    email: profile.email,
    emailVerified: false,
  }),
  subject: (profile) => profile.id,
  customize(provider, options) {
    if (options.tokenEndpointAuthMethod === "none" && options.clientSecret)
      throw new TypeError(
        "Cloudflare: tokenEndpointAuthMethod `none` cannot be combined with a clientSecret.",
      );
    const build = provider.createAuthorizationURL.bind(provider);
    provider.createAuthorizationURL = (data) => build({ ...data, additionalParams: undefined });
  },
});
