import { remoteJWKS } from "@latchkey/core";
import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import { idTokenClaims } from "../id-token-claims.js";
import { clientIds, primaryClientId, type SocialProviderOptions } from "../options.js";

/**
 * A Facebook profile: the Graph API user (`id`, `picture.data.url`) after a redirect or an
 * opaque access token, or the claims of a Limited Login ID token (`sub`, `picture` a URL).
 */
export interface FacebookProfile extends Record<string, unknown> {
  id?: string;
  sub?: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string | { data?: { url?: string; height?: number; width?: number; is_silhouette?: boolean } };
}

/** Options of {@link facebook}. */
export interface FacebookOptions extends SocialProviderOptions<FacebookProfile> {
  /** Graph fields read besides `id`, `name`, `email`, `picture`. */
  fields?: string[] | undefined;
  /** A Facebook Login for Business configuration, sent as `config_id`. */
  configId?: string | undefined;
}

/** What `debug_token` says about an access token (only the fields checked). */
interface TokenInspection {
  data?: { is_valid?: boolean; app_id?: string; user_id?: string };
}

/**
 * The Facebook user an opaque access token belongs to, or null. Graph's `/me` answers for a
 * token of any app, so without this check a token some other app obtained would sign its
 * user in here: `debug_token` must say the token is valid, issued to one of our app ids,
 * for a user. It authenticates with the app access token `<app id>|<app secret>`.
 */
async function tokenUser(
  accessToken: string,
  options: FacebookOptions,
  debugEndpoint: string,
): Promise<string | null> {
  if (!options.clientSecret) return null;
  const url = new URL(debugEndpoint);
  url.searchParams.set("input_token", accessToken);
  url.searchParams.set("access_token", `${primaryClientId(options.clientId)}|${options.clientSecret}`);
  const inspection = await fetchJSON<TokenInspection>(url.href);
  const data = inspection?.data;
  if (data?.is_valid !== true || !data.app_id || !data.user_id) return null;
  return clientIds(options.clientId).includes(data.app_id) ? data.user_id : null;
}

/** The Graph profile of an access token, bound to the user `debug_token` named. */
async function graphProfile(
  accessToken: string,
  options: FacebookOptions,
  endpoint: (name: string) => string,
): Promise<FacebookProfile | null> {
  const userId = await tokenUser(accessToken, options, endpoint("debugToken"));
  if (!userId) return null;
  const url = new URL(endpoint("userInfo"));
  url.searchParams.set("fields", ["id", "name", "email", "picture", ...(options.fields ?? [])].join(","));
  const profile = await fetchJSON<FacebookProfile>(url.href, { headers: bearer(accessToken) ?? {} });
  // The profile must be the token's own user, not whoever the endpoint answered for.
  return profile && profile.id === userId ? profile : null;
}

/**
 * Facebook. Endpoints: `authorization`, `token`, `userInfo` (Graph `/me`), `debugToken`,
 * `jwks` (Limited Login keys). Forwards `login_hint`, no PKCE, no `prompt`; `configId` is sent
 * as `config_id`. A Limited Login ID token (a JWT: RS256 only, issuer www.facebook.com,
 * audience the app ids) is the profile itself, its email never counted as verified. Any
 * other sign-in reads Graph `/me` (`fields` adds fields) with the access token, after
 * `debug_token` confirmed the token is ours; an opaque `idToken` on `POST /sign-in/social`
 * therefore needs `idToken.accessToken`, and answers 401 FAILED_TO_GET_USER_INFO without it
 * (spec, Social sign-in 3). The redirect flow needs a `clientSecret`.
 */
export const facebook = defineProvider<FacebookProfile, FacebookOptions>({
  id: "facebook",
  name: "Facebook",
  endpoints: {
    authorization: "https://www.facebook.com/v24.0/dialog/oauth",
    token: "https://graph.facebook.com/v24.0/oauth/access_token",
    userInfo: "https://graph.facebook.com/me",
    debugToken: "https://graph.facebook.com/debug_token",
    jwks: "https://limited.facebook.com/.well-known/oauth/openid/jwks/",
  },
  scopes: ["email", "public_profile"],
  loginHint: true,
  forwardPrompt: false,
  requiresSecret: true,
  authorizationParams: (options) => ({ config_id: options.configId }),
  idToken: (options, endpoint) => ({
    jwks: remoteJWKS(() => endpoint("jwks")),
    issuer: "https://www.facebook.com",
    audience: clientIds(options.clientId),
    // Spec, Social sign-in 3: Limited Login tokens must be RS256.
    algorithms: ["RS256"],
    // Classic tokens are opaque; the profile then comes from Graph (see above).
    allowOpaqueToken: true,
  }),
  async profile({ tokens, options, endpoint }) {
    const claims = idTokenClaims(tokens.idToken);
    if (claims) return typeof claims.sub === "string" ? (claims as FacebookProfile) : null;
    if (!tokens.accessToken) return null;
    return graphProfile(tokens.accessToken, options, endpoint);
  },
  user: (profile) => {
    if (profile.sub !== undefined) {
      // Limited Login: Facebook does not say whether the address was verified.
      const image = typeof profile.picture === "string" ? profile.picture : undefined;
      return { name: profile.name ?? "", email: profile.email, image, emailVerified: false };
    }
    const image = typeof profile.picture === "object" ? profile.picture.data?.url : undefined;
    return {
      name: profile.name ?? "",
      email: profile.email,
      image,
      emailVerified: profile.email_verified === true,
    };
  },
  subject: (profile) => profile.sub ?? profile.id ?? "",
});
