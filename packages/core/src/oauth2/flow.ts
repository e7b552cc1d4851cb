import { readAccountInfo, refreshAccountTokens, validAccessToken } from "./account-token-flow.js";
import { completeCallback } from "./callback-flow.js";
import { linkWithIdToken } from "./id-token-link.js";
import { signInWithIdToken } from "./id-token-sign-in.js";
import { startRedirectFlow } from "./redirect-flow.js";

/**
 * What core's social routes run once they have found a provider: starting a redirect flow,
 * the ID-token sign-in and link, the callback's code exchange with sign-in or link, and the
 * stored-token operations. The routes themselves keep only what answers without a provider
 * (body validation, provider lookup, state checks, error answers), so an application that
 * configures no provider never loads ID-token verification (jose), token encryption
 * (XChaCha20-Poly1305) or the sign-in, link and refresh logic.
 *
 * The flow travels on the provider (`OAuthProvider.flow`): every provider builder (core's
 * `oidcProvider`, `defineProvider` of `@latchkey/social-providers`, Generic OAuth) sets
 * `flow: oauthFlow`, so that code is in a bundle exactly when some provider code is. A
 * provider object built by hand must set it too; one without it is logged and treated as
 * not configured.
 */
export interface OAuthFlow {
  /** `/sign-in/social`, `/link-social` without an ID token, and an IdP-initiated callback. */
  startRedirect: typeof startRedirectFlow;
  /** `/sign-in/social` with an `idToken`. */
  signInWithIdToken: typeof signInWithIdToken;
  /** `/link-social` with an `idToken`. */
  linkWithIdToken: typeof linkWithIdToken;
  /** `/callback/:id` once the state and the code are known. */
  completeCallback: typeof completeCallback;
  /** `/get-access-token`. */
  accessToken: typeof validAccessToken;
  /** `/refresh-token`. */
  refreshTokens: typeof refreshAccountTokens;
  /** `/account-info`. */
  accountInfo: typeof readAccountInfo;
}

/**
 * Core's OAuth flow; provider builders attach it as `flow`. Exported from the public entry,
 * and referenced by nothing `createAuth` reaches, so bundles without providers drop it.
 *
 * @example
 * // a provider object written by hand (builders set `flow` themselves)
 * socialProviders: { acme: { ...acmeProvider, flow: oauthFlow } }
 */
export const oauthFlow: OAuthFlow = {
  startRedirect: startRedirectFlow,
  signInWithIdToken,
  linkWithIdToken,
  completeCallback,
  accessToken: validAccessToken,
  refreshTokens: refreshAccountTokens,
  accountInfo: readAccountInfo,
};
