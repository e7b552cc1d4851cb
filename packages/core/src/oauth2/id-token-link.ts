import type { EndpointContext } from "../api/context.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { identifyIdToken, type ClientIdToken } from "./id-token-identity.js";
import { trustedProviders } from "./providers.js";
import { storedTokens } from "./token-storage.js";
import type { OAuthProvider } from "./types.js";
import { applyUpdateUserInfoOnLink } from "./user-fields.js";

/**
 * `POST /link-social` with an `idToken`: links the provider account it names to the
 * signed-in user at once. An account the user already has gets the new tokens; another
 * user's is 409 `SOCIAL_ACCOUNT_ALREADY_LINKED` (never moved); an untrusted provider with an
 * unverified email, or linking turned off, is 401 `LINKING_NOT_ALLOWED`; another email is 401
 * `LINKING_DIFFERENT_EMAILS_NOT_ALLOWED` unless allowed; a failed insert is 417 `LINKING_FAILED`.
 */
export async function linkWithIdToken(
  ctx: EndpointContext,
  provider: OAuthProvider,
  idToken: ClientIdToken,
  user: { id: string; email: string },
): Promise<{ url: ""; status: true; redirect: false }> {
  const auth = ctx.context;
  const { tokens, user: info, key } = await identifyIdToken(ctx, provider, idToken);
  const stored = await storedTokens(auth, tokens);
  const existing = await auth.internalAdapter.findAccountByKey(key);
  if (existing?.userId === user.id) {
    await auth.internalAdapter.updateAccount(existing.id, stored, ctx);
    await applyUpdateUserInfoOnLink(ctx, user.id, info);
    return { url: "", status: true, redirect: false };
  }
  // Spec: the provider account is someone else's; never move it to this user.
  if (existing) throw fail("CONFLICT", "SOCIAL_ACCOUNT_ALREADY_LINKED");
  const linking = auth.options.account?.accountLinking;
  const trusted = (await trustedProviders(auth, ctx.request)).includes(provider.id);
  if ((!trusted && !info.emailVerified) || linking?.enabled === false) {
    throw APIError.from("UNAUTHORIZED", "LINKING_NOT_ALLOWED", "Account not linked - linking not allowed");
  }
  if (info.email.toLowerCase() !== user.email.toLowerCase() && linking?.allowDifferentEmails !== true) {
    throw APIError.from(
      "UNAUTHORIZED",
      "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED",
      "Account not linked - different emails not allowed",
    );
  }
  const created = await auth.internalAdapter
    .linkAccount({ ...key, userId: user.id, ...stored }, ctx)
    .catch(() => null);
  if (!created)
    throw APIError.from("EXPECTATION_FAILED", "LINKING_FAILED", "Account not linked - unable to create account");
  await applyUpdateUserInfoOnLink(ctx, user.id, info);
  return { url: "", status: true, redirect: false };
}
