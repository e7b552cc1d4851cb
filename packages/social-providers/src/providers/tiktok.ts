import { boundedFetch, OAuthTokenError, toOAuth2Tokens, type OAuth2Tokens } from "@latchkey/core";
import { clientParamAuthorizationURL } from "../authorization-url.js";
import { defineProvider, requestedScopes } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";
import { placeholderEmail } from "../placeholder-email.js";

/** TikTok's user info answer (`GET /v2/user/info/`). */
export interface TiktokProfile extends Record<string, unknown> {
  data: {
    user: {
      open_id: string;
      union_id?: string;
      avatar_large_url?: string;
      display_name?: string;
      username?: string;
      email?: string;
      [field: string]: unknown;
    };
  };
  error?: { code: string; message: string; log_id: string };
}

/** Options of the TikTok provider (the reference's, plus `endpoints`). */
export interface TiktokOptions extends SocialProviderOptions<TiktokProfile> {
  /** The app's client key: TikTok's name for the client id (`clientId` is not used). */
  clientKey: string;
}

const DEFAULT_SCOPES = ["user.info.profile"];
const PROFILE_FIELDS = ["open_id", "avatar_large_url", "display_name", "username"].join(",");

/**
 * A token request authenticated TikTok's way: `client_key` and `client_secret` in the form,
 * no `client_id` (which TikTok does not know). Errors carry only TikTok's error code.
 */
async function tiktokTokens(endpoint: string, params: Record<string, string>): Promise<OAuth2Tokens> {
  const response = await boundedFetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(params),
  });
  const data: unknown = await response.json().catch(() => null);
  const json = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  if (!response.ok || typeof json.access_token !== "string" || !json.access_token) {
    const code = typeof json.error === "string" && /^[\x20-\x7e]{1,100}$/.test(json.error) ? json.error : "";
    throw new OAuthTokenError(code || "invalid_token_response", response.status);
  }
  return toOAuth2Tokens(json);
}

/**
 * TikTok (Login Kit v2). Endpoints: `authorization`, `token`, `userInfo` (`/v2/user/info/`).
 * Names the client `client_key` (option `clientKey`) in the authorization and token requests
 * and never sends `client_id`; scopes are comma-joined; no PKCE challenge, prompt or login_hint
 * (the reference still posts the code verifier to the token endpoint, which TikTok ignores for
 * web apps; kept for parity). The account id is `open_id`. TikTok shares no email, so users get
 * `<open_id>@tiktok.placeholder.invalid` (spec, Social sign-in 4; 1.0 used the username).
 */
export const tiktok = defineProvider<TiktokProfile, TiktokOptions>({
  id: "tiktok",
  name: "TikTok",
  endpoints: {
    authorization: "https://www.tiktok.com/v2/auth/authorize",
    token: "https://open.tiktokapis.com/v2/oauth/token/",
    userInfo: "https://open.tiktokapis.com/v2/user/info/",
  },
  scopes: DEFAULT_SCOPES,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    if (!headers) return null;
    const url = new URL(endpoint("userInfo"));
    url.searchParams.set("fields", PROFILE_FIELDS);
    const profile = await fetchJSON<TiktokProfile>(url.href, { headers });
    return typeof profile?.data?.user?.open_id === "string" ? profile : null;
  },
  user: ({ data: { user } }) => ({
    name: user.display_name || user.username || "",
    email: user.email || placeholderEmail(user.open_id, "tiktok"),
    image: user.avatar_large_url,
    emailVerified: false,
  }),
  subject: (profile) => profile.data.user.open_id,
  customize(provider, options, endpoint) {
    if (!options.clientKey || !options.clientSecret)
      throw new TypeError("TikTok needs a clientKey and a clientSecret.");
    const client = { client_key: options.clientKey, client_secret: options.clientSecret };
    provider.createAuthorizationURL = (data) =>
      clientParamAuthorizationURL({
        endpoint: options.authorizationEndpoint ?? endpoint("authorization"),
        clientParam: "client_key",
        clientValue: options.clientKey,
        scopes: requestedScopes(DEFAULT_SCOPES, options, data),
        redirectURI: options.redirectURI ?? data.redirectURI,
        state: data.state,
        additionalParams: data.additionalParams,
      });
    provider.validateAuthorizationCode = ({ code, codeVerifier, redirectURI }) =>
      tiktokTokens(endpoint("token"), {
        grant_type: "authorization_code",
        code,
        redirect_uri: options.redirectURI ?? redirectURI,
        ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
        ...client,
      });
    if (!options.refreshAccessToken) {
      provider.refreshAccessToken = (refreshToken) =>
        tiktokTokens(endpoint("token"), {
          grant_type: "refresh_token",
          refresh_token: refreshToken,
          ...client,
        });
    }
  },
});
