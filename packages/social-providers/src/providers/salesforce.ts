import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Salesforce's OpenID Connect userinfo answer. */
export interface SalesforceProfile extends Record<string, unknown> {
  sub: string;
  user_id: string;
  organization_id: string;
  preferred_username?: string;
  email: string;
  email_verified?: boolean;
  name: string;
  given_name?: string;
  family_name?: string;
  zoneinfo?: string;
  photos?: { picture?: string; thumbnail?: string };
}

/** Options of the Salesforce provider (the reference's, plus `endpoints`). */
export interface SalesforceOptions extends SocialProviderOptions<SalesforceProfile> {
  /** Which login host: `login.salesforce.com` or, for sandboxes, `test.salesforce.com`. @default "production" */
  environment?: "sandbox" | "production";
  /** A My Domain host (e.g. `acme.my.salesforce.com`, no scheme); wins over `environment`. */
  loginUrl?: string;
}

/** The login host the options select. */
const loginHost = (options: SalesforceOptions): string =>
  options.loginUrl ?? (options.environment === "sandbox" ? "test.salesforce.com" : "login.salesforce.com");

/**
 * Salesforce. Endpoints: `authorization`, `token`, `userInfo`, all under
 * `https://<host>/services/oauth2/`, where the host is `loginUrl` (a My Domain), else
 * `test.salesforce.com` for `environment: "sandbox"`, else `login.salesforce.com`. Sends PKCE;
 * needs both clientId and clientSecret (a TypeError otherwise); no prompt or login_hint. The
 * account id is `user_id`; the image is the full photo, else the thumbnail.
 */
export const salesforce = defineProvider<SalesforceProfile, SalesforceOptions>({
  id: "salesforce",
  name: "Salesforce",
  endpoints: (options) => {
    const base = `https://${loginHost(options)}/services/oauth2`;
    return { authorization: `${base}/authorize`, token: `${base}/token`, userInfo: `${base}/userinfo` };
  },
  scopes: ["openid", "email", "profile"],
  pkce: true,
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<SalesforceProfile>(endpoint("userInfo"), { headers }));
    return profile && typeof profile.user_id === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.name || "",
    email: profile.email,
    image: profile.photos?.picture || profile.photos?.thumbnail,
    emailVerified: profile.email_verified ?? false,
  }),
  subject: (profile) => profile.user_id,
  customize(_provider, options) {
    // The reference refuses to start a sign-in without both; here it is a configuration error.
    if (!options.clientId || !options.clientSecret)
      throw new TypeError("Salesforce needs a clientId and a clientSecret.");
  },
});
