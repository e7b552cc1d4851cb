import { defineProvider } from "../define-provider.js";
import { idTokenClaims } from "../id-token-claims.js";
import type { SocialProviderOptions } from "../options.js";

/** The claims of Twitch's ID token the sign-in reads. */
export interface TwitchProfile extends Record<string, unknown> {
  sub: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
}

/** Options of the Twitch provider (the reference's, plus `endpoints`). */
export interface TwitchOptions extends SocialProviderOptions<TwitchProfile> {
  /**
   * ID-token claims requested through the OIDC `claims` parameter (`email` and `email_verified`
   * are always asked). @default ["email", "email_verified", "preferred_username", "picture"]
   */
  claims?: string[] | undefined;
}

const DEFAULT_CLAIMS = ["email", "email_verified", "preferred_username", "picture"];

/**
 * Twitch (OpenID Connect). Endpoints: `authorization`, `token`. Asks for the ID-token claims
 * of the `claims` option through the OIDC `claims` parameter (OIDC Core §5.5), always with
 * `email` and `email_verified`; no PKCE, prompt or login_hint; the secret goes in the form.
 * The profile is the ID token of the token response (no userinfo call); a response without one
 * fails with `unable_to_get_user_info`. Name is `preferred_username`; the account id is `sub`.
 */
export const twitch = defineProvider<TwitchProfile, TwitchOptions>({
  id: "twitch",
  name: "Twitch",
  endpoints: {
    authorization: "https://id.twitch.tv/oauth2/authorize",
    token: "https://id.twitch.tv/oauth2/token",
  },
  scopes: ["user:read:email", "openid"],
  forwardPrompt: false,
  authorizationParams: (options) => {
    const requested = Object.fromEntries((options.claims ?? DEFAULT_CLAIMS).map((claim) => [claim, null]));
    return { claims: JSON.stringify({ id_token: { email: null, email_verified: null, ...requested } }) };
  },
  profile({ tokens }) {
    // Straight from the token endpoint over TLS: OIDC Core §3.1.3.7 (6) lets TLS stand in for
    // the signature check, as in the reference.
    const claims = idTokenClaims(tokens.idToken);
    return Promise.resolve(claims && typeof claims.sub === "string" ? (claims as TwitchProfile) : null);
  },
  user: (profile) => ({
    name: profile.preferred_username || "",
    email: profile.email,
    image: profile.picture,
    emailVerified: profile.email_verified === true,
  }),
  subject: (profile) => profile.sub,
});
