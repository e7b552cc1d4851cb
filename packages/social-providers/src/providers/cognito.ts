import { remoteJWKS } from "@latchkey/core";
import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import { idTokenClaims, textClaim } from "../id-token-claims.js";
import { clientIds, type SocialProviderOptions } from "../options.js";

/** Cognito ID-token claims or userinfo, with `name` filled as the reference does. */
export interface CognitoProfile extends Record<string, unknown> {
  sub: string;
  email?: string;
  /** A boolean in ID tokens, the string "true"/"false" in userinfo. */
  email_verified?: boolean | string;
  name: string;
  given_name?: string;
  family_name?: string;
  username?: string;
  picture?: string;
}

/** Options of {@link cognito}: the user pool it signs in against. */
export interface CognitoOptions extends SocialProviderOptions<CognitoProfile> {
  /** The user pool's hosted-UI domain, e.g. `my-app.auth.us-east-1.amazoncognito.com`. */
  domain: string;
  /** The AWS region of the user pool, e.g. `us-east-1`. */
  region: string;
  userPoolId: string;
  /** Refuse to build the provider without a `clientSecret` (confidential app clients). @default false */
  requireClientSecret?: boolean | undefined;
  /** Preselects an identity provider on the hosted UI (`identity_provider`); a sign-in's own parameter wins. */
  identityProvider?: string | undefined;
}

/** `email_verified` is `true` in ID tokens and `"true"` in userinfo. */
const yes = (value: unknown): boolean => value === true || value === "true";

/** The profile with the reference's `name`: name, else given name, else username, else empty. */
function withName(claims: Record<string, unknown>): CognitoProfile | null {
  if (!textClaim(claims.sub)) return null;
  const name = textClaim(claims.name) ?? textClaim(claims.given_name) ?? textClaim(claims.username) ?? "";
  return { ...claims, name } as CognitoProfile;
}

/**
 * Amazon Cognito (a user pool's hosted UI). Endpoints: `authorization`, `token`, `userInfo`
 * under `https://<domain>/oauth2/`, and `jwks` of the user pool
 * (`https://cognito-idp.<region>.amazonaws.com/<userPoolId>/.well-known/jwks.json`).
 * `domain`, `region` and `userPoolId` are required (a TypeError when missing). Sends PKCE,
 * `prompt` and `identity_provider`; no `login_hint`; the scope is percent-encoded (`%20`,
 * not `+`), which the hosted UI requires. The profile is the ID token of the token response,
 * else userinfo. ID-token sign-in verifies against the pool's keys and issuer, audience the
 * client ids, at most an hour old.
 */
export const cognito = defineProvider<CognitoProfile, CognitoOptions>({
  id: "cognito",
  name: "Cognito",
  endpoints: (options) => {
    if (!options.domain || !options.region || !options.userPoolId) {
      throw new TypeError("Cognito needs `domain`, `region` and `userPoolId`.");
    }
    if (options.requireClientSecret && !options.clientSecret) {
      throw new TypeError("Cognito: `requireClientSecret` is set but no clientSecret is given.");
    }
    const host = options.domain.replace(/^https?:\/\//, "").replace(/\/+$/, "");
    const pool = `https://cognito-idp.${options.region}.amazonaws.com/${options.userPoolId}`;
    return {
      authorization: `https://${host}/oauth2/authorize`,
      token: `https://${host}/oauth2/token`,
      userInfo: `https://${host}/oauth2/userinfo`,
      jwks: `${pool}/.well-known/jwks.json`,
      issuer: pool,
    };
  },
  scopes: ["openid", "profile", "email"],
  pkce: true,
  authorizationParams: (options) => ({ identity_provider: options.identityProvider }),
  idToken: (options, endpoint) => ({
    jwks: remoteJWKS(() => endpoint("jwks")),
    issuer: endpoint("issuer"),
    audience: clientIds(options.clientId),
    maxTokenAge: "1h",
  }),
  async profile({ tokens, endpoint }) {
    const claims = idTokenClaims(tokens.idToken);
    if (claims) return withName(claims);
    const headers = bearer(tokens.accessToken);
    const info = headers && (await fetchJSON(endpoint("userInfo"), { headers }));
    return info ? withName(info) : null;
  },
  user: (profile) => ({
    name: profile.name,
    email: profile.email,
    image: profile.picture,
    emailVerified: yes(profile.email_verified),
  }),
  subject: (profile) => profile.sub,
  customize(provider) {
    const build = provider.createAuthorizationURL.bind(provider);
    provider.createAuthorizationURL = async (data) => {
      const url = await build(data);
      const scope = url.searchParams.get("scope");
      if (!scope) return url;
      // URLSearchParams writes spaces as "+"; Cognito's hosted UI wants "%20" (the reference
      // appends the scope last, encoded with encodeURIComponent).
      url.searchParams.delete("scope");
      url.search = `${url.search ? `${url.search}&` : "?"}scope=${encodeURIComponent(scope)}`;
      return url;
    };
  },
});
