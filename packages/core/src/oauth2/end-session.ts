import type { EndpointContext } from "../api/context.js";
import { findSocialProvider } from "./providers.js";

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2) on `/sign-out`: the
 * end-session URL of the provider the user signed in with most recently, among the
 * providers that offer one (`createEndSessionURL`), or null. As the reference, the stored ID
 * token goes along as `id_token_hint` and a relative `callbackURL` is resolved against the
 * base URL. Failures are logged and yield null: signing out never fails because a provider
 * cannot be logged out of.
 */
export async function providerLogoutURL(
  ctx: EndpointContext,
  userId: string,
  input: { callbackURL?: string | undefined; state?: string | undefined },
): Promise<string | null> {
  const auth = ctx.context;
  try {
    const accounts = await auth.internalAdapter.findAccounts(userId);
    accounts.sort((a, b) => new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime());
    const postLogoutRedirectURI = input.callbackURL
      ? new URL(input.callbackURL, auth.baseURL).toString()
      : undefined;
    const seen = new Set<string>();
    for (const account of accounts) {
      if (seen.has(account.providerId)) continue;
      seen.add(account.providerId);
      try {
        const provider = await findSocialProvider(auth, account.providerId);
        if (!provider?.createEndSessionURL) continue;
        const url = await provider.createEndSessionURL({
          idToken: account.idToken,
          postLogoutRedirectURI,
          state: input.state,
        });
        if (url) return url.toString();
      } catch (error) {
        auth.logger.error(`Failed to create logout URL for provider "${account.providerId}"`, error);
      }
    }
  } catch (error) {
    auth.logger.error("Failed to create provider logout URL", error);
  }
  return null;
}
