import type { EndpointContext } from "../api/context.js";
import type { AccountKey } from "../db/internal/accounts-by-key.js";
import { fail } from "../errors/index.js";
import { resolveAccountKey } from "./account-key.js";
import { supportsIdTokenSignIn, verifyProviderIdToken } from "./id-token.js";
import type { OAuth2UserInfo, OAuthProvider } from "./types.js";

/** The `idToken` a client submits to `/sign-in/social` or `/link-social`, and what it got with it. */
export interface ClientIdToken {
  token: string;
  nonce?: string | undefined;
  accessToken?: string | undefined;
  refreshToken?: string | undefined;
  /** Apple's first-sign-in name and email, passed on to the provider's profile lookup. */
  user?: { name?: { firstName?: string; lastName?: string }; email?: string } | undefined;
}

/** Who a verified client-submitted ID token names: the provider's user (with an email), its profile and account key. */
export interface IdTokenIdentity {
  tokens: { idToken: string; accessToken?: string | undefined; refreshToken?: string | undefined };
  user: OAuth2UserInfo & { email: string };
  profile: Record<string, unknown>;
  key: AccountKey;
}

/**
 * The checks both ID-token flows run before touching storage: the provider accepts ID
 * tokens (404 `ID_TOKEN_NOT_SUPPORTED`), the token verifies with the client's nonce (401
 * `INVALID_TOKEN`), the provider returns a user with an email (401 `FAILED_TO_GET_USER_INFO`,
 * `USER_EMAIL_NOT_FOUND`) and an account subject. Verification fails closed.
 */
export async function identifyIdToken(
  ctx: EndpointContext,
  provider: OAuthProvider,
  idToken: ClientIdToken,
): Promise<IdTokenIdentity> {
  if (!supportsIdTokenSignIn(provider)) throw fail("NOT_FOUND", "ID_TOKEN_NOT_SUPPORTED");
  if (!(await verifyProviderIdToken(provider, idToken.token, idToken.nonce, ctx))) {
    ctx.context.logger.warn("Invalid id token");
    throw fail("UNAUTHORIZED", "INVALID_TOKEN");
  }
  const tokens = {
    idToken: idToken.token,
    accessToken: idToken.accessToken,
    refreshToken: idToken.refreshToken,
  };
  const info = await provider.getUserInfo({ ...tokens, user: idToken.user }).catch(() => null);
  if (!info?.user) throw fail("UNAUTHORIZED", "FAILED_TO_GET_USER_INFO");
  const email = info.user.email;
  if (!email) throw fail("UNAUTHORIZED", "USER_EMAIL_NOT_FOUND");
  const key = await resolveAccountKey(provider, tokens, info.data).catch(() => {
    throw fail("UNAUTHORIZED", "FAILED_TO_GET_USER_INFO");
  });
  return { tokens, user: { ...info.user, email }, profile: info.data, key };
}
