import { defineProvider } from "../define-provider.js";
import { idTokenClaims } from "../id-token-claims.js";
import type { SocialProviderOptions } from "../options.js";

/** The claims of Paybin's ID token the sign-in reads. */
export interface PaybinProfile extends Record<string, unknown> {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  picture?: string;
}

/** Options of the Paybin provider (the reference's, plus `endpoints`). */
export interface PaybinOptions extends SocialProviderOptions<PaybinProfile> {
  /** The Paybin OAuth server. @default "https://idp.paybin.io" */
  issuer?: string | undefined;
}

/**
 * Paybin (OpenID Connect). Endpoints: `authorization` (`<issuer>/oauth2/authorize`), `token`
 * (`<issuer>/oauth2/token`), issuer by option. Sends PKCE, the prompt option and `login_hint`;
 * the secret goes in the form. Needs both clientId and clientSecret (a TypeError otherwise).
 * The profile is the ID token of the token response (no userinfo call; OIDC Core §3.1.3.7 (6):
 * received over TLS from the token endpoint); a response without one fails the sign-in. Name
 * is `name`, else `preferred_username`.
 */
export const paybin = defineProvider<PaybinProfile, PaybinOptions>({
  id: "paybin",
  name: "Paybin",
  endpoints: (options) => {
    const issuer = options.issuer || "https://idp.paybin.io";
    return { authorization: `${issuer}/oauth2/authorize`, token: `${issuer}/oauth2/token` };
  },
  scopes: ["openid", "email", "profile"],
  pkce: true,
  loginHint: true,
  profile({ tokens }) {
    const claims = idTokenClaims(tokens.idToken);
    return Promise.resolve(claims && typeof claims.sub === "string" ? (claims as PaybinProfile) : null);
  },
  user: (profile) => ({
    name: profile.name || profile.preferred_username || "",
    email: profile.email,
    image: profile.picture,
    emailVerified: profile.email_verified === true,
  }),
  subject: (profile) => profile.sub,
  customize(_provider, options) {
    // The reference refuses to start a sign-in without both; here it is a configuration error.
    if (!options.clientId || !options.clientSecret)
      throw new TypeError("Paybin needs a clientId and a clientSecret.");
  },
});
