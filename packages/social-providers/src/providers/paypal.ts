import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import { idTokenClaims, textClaim } from "../id-token-claims.js";
import type { SocialProviderOptions } from "../options.js";

/** PayPal's userinfo (`schema=paypalv1.1`). */
export interface PayPalProfile extends Record<string, unknown> {
  /** The stable account id, a URL such as `https://www.paypal.com/webapps/auth/identity/user/…`. */
  user_id: string;
  sub?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  verified_account?: boolean;
  picture?: string;
  payer_id?: string;
}

/** Options of {@link paypal}. */
export interface PayPalOptions extends SocialProviderOptions<PayPalProfile> {
  /** @default "sandbox" */
  environment?: "sandbox" | "live" | undefined;
  /** Accepted for reference configs; PayPal takes address access from the app's settings. */
  requestShippingAddress?: boolean | undefined;
  /**
   * Re-enable 1.0's ID-token sign-in (spec, Versioning: off by default in 1.1). The token is
   * only decoded, not verified: identity comes from userinfo called with the client's
   * `idToken.accessToken`, whose subject must equal the token's `sub`. @default false
   * @deprecated Use the redirect flow.
   */
  legacyIdTokenSignIn?: boolean | undefined;
}

const hosts = (options: PayPalOptions) =>
  (options.environment ?? "sandbox") === "sandbox"
    ? { web: "https://www.sandbox.paypal.com", api: "https://api-m.sandbox.paypal.com" }
    : { web: "https://www.paypal.com", api: "https://api-m.paypal.com" };

/**
 * PayPal. Endpoints: `authorization`, `token`, `userInfo`, chosen by `environment` (sandbox by
 * default, `live` for production). No default scopes (the app's PayPal settings decide),
 * PKCE, `prompt`, no `login_hint`; the token endpoint is called with HTTP Basic. The profile
 * is userinfo (`schema=paypalv1.1`); when the token response carries an ID token, userinfo's
 * subject must be the token's. The account id is `user_id`. ID-token sign-in is off unless
 * `legacyIdTokenSignIn: true`. The redirect flow needs a `clientSecret`.
 */
export const paypal = defineProvider<PayPalProfile, PayPalOptions>({
  id: "paypal",
  name: "PayPal",
  endpoints: (options) => {
    const { web, api } = hosts(options);
    return {
      authorization: `${web}/signin/authorize`,
      token: `${api}/v1/oauth2/token`,
      userInfo: `${api}/v1/identity/oauth2/userinfo`,
    };
  },
  scopes: [],
  pkce: true,
  requiresSecret: true,
  tokenAuth: "client_secret_basic",
  idToken: (options) =>
    options.legacyIdTokenSignIn
      ? {
          // 1.0 behaviour: a token that decodes to a subject passes; getUserInfo then binds it
          // to the access token's userinfo.
          verify: (token) => Promise.resolve(!!textClaim(idTokenClaims(token)?.sub)),
        }
      : undefined,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    if (!headers) return null;
    const url = new URL(endpoint("userInfo"));
    url.searchParams.set("schema", "paypalv1.1");
    const profile = await fetchJSON<PayPalProfile>(url.href, { headers });
    if (!profile || !textClaim(profile.user_id)) return null;
    if (tokens.idToken) {
      // The ID token and the access token must describe the same person.
      const subject = textClaim(idTokenClaims(tokens.idToken)?.sub);
      if (!subject || (profile.sub ?? profile.user_id) !== subject) return null;
    }
    return profile;
  },
  user: (profile) => ({
    name: profile.name ?? "",
    email: profile.email,
    image: profile.picture,
    emailVerified: profile.email_verified === true,
  }),
  subject: (profile) => profile.user_id,
});
