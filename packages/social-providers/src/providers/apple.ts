import { remoteJWKS } from "@latchkey/core";
import { defineProvider } from "../define-provider.js";
import { idTokenClaims } from "../id-token-claims.js";
import { clientIds, type SocialProviderOptions } from "../options.js";

/** The claims of an Apple ID token, with `name` filled from the first sign-in's `user` payload. */
export interface AppleProfile extends Record<string, unknown> {
  sub: string;
  email?: string;
  /** Apple sends a boolean or the string "true"/"false". */
  email_verified?: boolean | "true" | "false";
  is_private_email?: boolean | "true" | "false";
  name: string;
}

/** Options of {@link apple}. */
export interface AppleOptions extends SocialProviderOptions<AppleProfile> {
  /**
   * The client secret Apple expects: an ES256 JWT you sign with your Sign in with Apple key
   * (team id as `iss`, the Services ID as `sub`, at most six months valid). It is sent as is.
   */
  clientSecret?: string | undefined;
  /** The iOS app's bundle id: the audience of ID tokens from native sign-in. */
  appBundleIdentifier?: string | undefined;
  /** Accepted ID-token audiences. @default appBundleIdentifier, else every client id */
  audience?: string | string[] | undefined;
}

/** Apple answers `true`, `"true"`, `false` or `"false"`. */
const yes = (value: unknown): boolean => value === true || value === "true";

/** Accepted ID-token audiences: `audience` when given, else the bundle id, else the client ids (the reference's order). */
function audience(options: AppleOptions): string[] {
  const listed = [options.audience ?? []].flat();
  if (listed.length) return listed;
  return options.appBundleIdentifier ? [options.appBundleIdentifier] : clientIds(options.clientId);
}

/**
 * Apple. Endpoints: `authorization`, `token`, `jwks`. Asks `response_type=code id_token` with
 * `response_mode=form_post`, so Apple POSTs the answer to `/callback/apple` (core turns it into
 * a GET so the state cookie comes along). Sends PKCE; no `login_hint`, no `prompt`. Apple
 * sends the user's name only on the first sign-in, as the `user` form field (or the client's
 * `idToken.user`): it becomes the name, else the token's `name`, else empty. No picture.
 * ID-token sign-in: Apple's issuer, audience `audience` / `appBundleIdentifier` / the client
 * ids, at most an hour old, and the nonce claim may be the nonce or its SHA-256 hex (what
 * the iOS SDK sends). The redirect flow needs `clientSecret` (the JWT described above).
 */
export const apple = defineProvider<AppleProfile, AppleOptions>({
  id: "apple",
  name: "Apple",
  endpoints: {
    authorization: "https://appleid.apple.com/auth/authorize",
    token: "https://appleid.apple.com/auth/token",
    jwks: "https://appleid.apple.com/auth/keys",
  },
  scopes: ["email", "name"],
  pkce: true,
  forwardPrompt: false,
  requiresSecret: true,
  idToken: (options, endpoint) => ({
    jwks: remoteJWKS(() => endpoint("jwks")),
    issuer: "https://appleid.apple.com",
    audience: audience(options),
    maxTokenAge: "1h",
    nonceComparison: "exact-or-sha256",
  }),
  profile({ tokens }) {
    const claims = idTokenClaims(tokens.idToken);
    if (!claims || typeof claims.sub !== "string") return Promise.resolve(null);
    const given = tokens.user?.name;
    const name = given
      ? `${given.firstName ?? ""} ${given.lastName ?? ""}`.trim()
      : typeof claims.name === "string"
        ? claims.name
        : "";
    return Promise.resolve({ ...claims, name } as AppleProfile);
  },
  user: (profile) => ({
    name: profile.name,
    email: profile.email,
    emailVerified: yes(profile.email_verified),
  }),
  subject: (profile) => profile.sub,
  customize(provider) {
    const build = provider.createAuthorizationURL.bind(provider);
    provider.createAuthorizationURL = async (data) => {
      const url = await build(data);
      // Apple returns the ID token beside the code and POSTs both (its `name`/`email` scopes
      // require form_post).
      url.searchParams.set("response_type", "code id_token");
      url.searchParams.set("response_mode", "form_post");
      return url;
    };
  },
});
