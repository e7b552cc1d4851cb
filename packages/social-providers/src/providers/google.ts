import { remoteJWKS } from "@latchkey/core";
import { defineProvider } from "../define-provider.js";
import { idTokenClaims } from "../id-token-claims.js";
import { clientIds, type SocialProviderOptions } from "../options.js";

/** The claims of a Google ID token, the profile of a Google sign-in. */
export interface GoogleProfile extends Record<string, unknown> {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  locale?: string;
  /** The Google Workspace domain of the account (absent for consumer accounts). */
  hd?: string;
}

/** Options of {@link google}: the common ones plus Google's authorization hints. */
export interface GoogleOptions extends SocialProviderOptions<GoogleProfile> {
  /** `access_type`: `"offline"` asks for a refresh token. */
  accessType?: "offline" | "online" | undefined;
  /** `display` of the consent page (a sign-in's own `display` wins). */
  display?: "page" | "popup" | "touch" | "wap" | undefined;
  /**
   * Hosted (Workspace) domain: sent as the `hd` hint and enforced on the ID token's `hd`
   * claim; `"*"` requires any Workspace domain. A token without a matching claim is refused.
   */
  hd?: string | undefined;
  /** Send `include_granted_scopes=true` (incremental authorization). @default true */
  includeGrantedScopes?: boolean | undefined;
}

/** Google's ID-token issuers: both spellings appear in tokens it issues. */
const ISSUERS = ["https://accounts.google.com", "accounts.google.com"];

/** Whether the token's `hd` satisfies the configured restriction (none configured: always). */
export function hostedDomainAllowed(configured: string | undefined, claim: unknown): boolean {
  if (!configured) return true;
  if (typeof claim !== "string" || claim === "") return false;
  return configured === "*" || claim === configured;
}

/**
 * Google. Endpoints: `authorization`, `token`, `jwks` (Google's signing keys). Sends PKCE and
 * `login_hint`, `include_granted_scopes=true` (unless `includeGrantedScopes: false`), and
 * `access_type`, `display`, `hd` when set; never a nonce (spec, Social sign-in 1). The profile
 * is the ID token of the token response (no userinfo call), so a response without one ends
 * the sign-in with `unable_to_get_user_info`. ID-token sign-in accepts RS256 tokens only, from
 * either Google issuer, for any configured client id, at most an hour old, and with `hd` set
 * the token's `hd` claim must match. The redirect flow needs a `clientSecret`.
 */
export const google = defineProvider<GoogleProfile, GoogleOptions>({
  id: "google",
  name: "Google",
  endpoints: {
    authorization: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    jwks: "https://www.googleapis.com/oauth2/v3/certs",
  },
  scopes: ["email", "profile", "openid"],
  pkce: true,
  loginHint: true,
  requiresSecret: true,
  authorizationParams: (options) => ({
    access_type: options.accessType,
    display: options.display,
    hd: options.hd,
    include_granted_scopes: options.includeGrantedScopes === false ? undefined : "true",
  }),
  idToken: (options, endpoint) => ({
    jwks: remoteJWKS(() => endpoint("jwks")),
    issuer: ISSUERS,
    audience: clientIds(options.clientId),
    // Spec, Social sign-in 1: RS256 only (Google signs nothing else).
    algorithms: ["RS256"],
    maxTokenAge: "1h",
    verifyClaims: options.hd ? (claims) => hostedDomainAllowed(options.hd, claims.hd) : undefined,
  }),
  profile({ tokens, options }) {
    const claims = idTokenClaims(tokens.idToken);
    if (!claims || typeof claims.sub !== "string") return Promise.resolve(null);
    // The `hd` hint in the request can be edited by the user; only the token's claim counts.
    if (!hostedDomainAllowed(options.hd, claims.hd)) return Promise.resolve(null);
    return Promise.resolve(claims as GoogleProfile);
  },
  user: (profile) => ({
    name: profile.name ?? "",
    email: profile.email,
    image: profile.picture,
    emailVerified: profile.email_verified === true,
  }),
  subject: (profile) => profile.sub,
});
