import type { EndpointContext } from "../api/context.js";
import { generateRandomString } from "../crypto/random.js";
import { callbackPath } from "./providers.js";
import { generateState } from "./state.js";
import type { OAuthProvider } from "./types.js";

/** What a redirect flow carries besides the request body: scopes, extra parameters, a link target. */
export interface RedirectFlowInput {
  scopes?: string[] | undefined;
  loginHint?: string | undefined;
  additionalParams?: Record<string, string> | undefined;
  additionalData?: Record<string, unknown> | undefined;
  /** Server-trusted values stored with the flow as `serverContext` (never from the request body). */
  serverContext?: Record<string, unknown> | undefined;
  disableRedirect?: boolean | undefined;
  /** The signed-in user a `/link-social` flow links the account to. */
  link?: { userId: string; email: string };
}

/**
 * Starts a redirect flow: state and PKCE verifier stored, the nonce minted when the provider
 * binds ID tokens to one (OIDC Core §3.1.2.1), and the authorization URL built. Shared by
 * `/sign-in/social`, `/link-social` and an IdP-initiated callback.
 */
export async function startRedirectFlow(
  ctx: EndpointContext,
  provider: OAuthProvider,
  input: RedirectFlowInput,
): Promise<{ url: string; redirect: boolean }> {
  const idTokenNonce = provider.requiresIdTokenNonce ? generateRandomString(32) : undefined;
  const { state, codeVerifier } = await generateState(ctx, {
    link: input.link,
    additionalData: input.additionalData,
    ...(input.serverContext ? { serverContext: input.serverContext } : {}),
    idTokenNonce,
  });
  const url = await provider.createAuthorizationURL({
    state,
    codeVerifier,
    idTokenNonce,
    redirectURI: `${ctx.context.baseURL}${callbackPath(provider)}`,
    scopes: input.scopes,
    loginHint: input.loginHint,
    additionalParams: input.additionalParams,
  });
  // The reference answers 200 with a Location header (not a 302).
  if (!input.disableRedirect) ctx.setHeader("location", url.toString());
  return { url: url.toString(), redirect: !input.disableRedirect };
}
