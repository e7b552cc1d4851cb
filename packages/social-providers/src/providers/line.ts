import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import { idTokenClaims, textClaim } from "../id-token-claims.js";
import { primaryClientId, type SocialProviderOptions } from "../options.js";

/** LINE ID-token claims or userinfo (both carry `sub`, `name`, `picture`; email only in the token). */
export interface LineProfile extends Record<string, unknown> {
  sub: string;
  name?: string;
  picture?: string;
  email?: string;
  amr?: string[];
  nonce?: string;
}

/** Options of {@link line}. */
export type LineOptions = SocialProviderOptions<LineProfile>;

/** What LINE's verify endpoint answers for a valid token (the claims checked here). */
interface VerifiedLineToken {
  aud?: string;
  nonce?: string;
}

/**
 * LINE Login v2.1. Endpoints: `authorization`, `token`, `userInfo`, `verify`. Sends PKCE and
 * `login_hint`; no `prompt`. The profile is the ID token of the token response, else
 * userinfo. LINE never says whether an email was verified, so `emailVerified` is always
 * false (as in the reference). ID-token sign-in asks LINE's verify endpoint (which checks the
 * signature and expiry), then requires our channel id as `aud` and the nonce when LINE
 * returns one.
 */
export const line = defineProvider<LineProfile, LineOptions>({
  id: "line",
  name: "LINE",
  endpoints: {
    authorization: "https://access.line.me/oauth2/v2.1/authorize",
    token: "https://api.line.me/oauth2/v2.1/token",
    userInfo: "https://api.line.me/oauth2/v2.1/userinfo",
    verify: "https://api.line.me/oauth2/v2.1/verify",
  },
  scopes: ["openid", "profile", "email"],
  pkce: true,
  loginHint: true,
  forwardPrompt: false,
  idToken: (options, endpoint) => ({
    async verify(token, nonce) {
      const clientId = primaryClientId(options.clientId);
      const body = new URLSearchParams({ id_token: token, client_id: clientId });
      if (nonce) body.set("nonce", nonce);
      const verified = await fetchJSON<VerifiedLineToken>(endpoint("verify"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      if (!verified || verified.aud !== clientId) return false;
      // A nonce in the token must be the one the client says it sent (OIDC Core §3.1.3.7 step 11).
      return !verified.nonce || verified.nonce === nonce;
    },
  }),
  async profile({ tokens, endpoint }) {
    const claims = idTokenClaims(tokens.idToken);
    if (claims) return textClaim(claims.sub) ? (claims as LineProfile) : null;
    const headers = bearer(tokens.accessToken);
    const info = headers && (await fetchJSON<LineProfile>(endpoint("userInfo"), { headers }));
    return info && textClaim(info.sub) ? info : null;
  },
  user: (profile) => ({
    name: profile.name ?? "",
    email: profile.email,
    image: profile.picture,
    emailVerified: false,
  }),
  subject: (profile) => profile.sub,
});
