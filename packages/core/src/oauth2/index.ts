// Public surface of the OAuth 2.0 / OpenID Connect client: what provider packages and plugins build on.
export type {
  Awaitable,
  OAuth2Tokens,
  OAuth2UserInfo,
  OAuthAccountKeyContext,
  OAuthIdTokenConfig,
  OAuthMappedUser,
  OAuthProvider,
  OAuthRefreshContext,
  ProviderOptions,
} from "./types.js";
export type {
  AccountLinkingOptions,
  AccountOptions,
  SocialProviderConfig,
  SocialProviderFactory,
  SocialProviders,
  SocialProviderValue,
} from "./options.js";
export {
  createAuthorizationURL,
  isReservedAuthorizationParam,
  RESERVED_AUTHORIZATION_PARAMS,
  type AuthorizationURLInput,
} from "./authorization-url.js";
export { generateCodeChallenge, generateCodeVerifier } from "./pkce.js";
export {
  privateKeyJwt,
  type ClientAssertionContext,
  type ClientCredentials,
  type TokenEndpointAuth,
} from "./client-auth.js";
export {
  OAuthTokenError,
  parseScopeField,
  refreshAccessToken,
  requestTokens,
  toOAuth2Tokens,
  validateAuthorizationCode,
  type TokenRequest,
} from "./token-request.js";
export {
  ASYMMETRIC_ALGORITHMS,
  supportsIdTokenSignIn,
  verifyIdToken,
  verifyProviderIdToken,
  type IdTokenExpectations,
} from "./id-token.js";
export { discoveryURL, fetchDiscovery, type OIDCDiscoveryDocument } from "./discovery.js";
export { remoteJWKS } from "./remote-jwks.js";
export { oidcProvider, type OIDCProviderConfig } from "./oidc-provider.js";
export { decryptOAuthToken, encryptOAuthToken } from "./token-storage.js";
export { mergeScopes, parseStoredScopes } from "./scopes.js";
export { getOAuthState, parseState, type OAuthStateData } from "./state.js";
export {
  callbackErrorRedirect,
  defaultErrorURL,
  OAUTH_CALLBACK_ERROR_CODES,
  type OAuthCallbackErrorCode,
} from "./callback-errors.js";
export { linkOAuthAccount, type LinkResult } from "./link-account.js";
export {
  callbackPath,
  findSocialProvider,
  type LazySocialProvider,
  type RunnableOAuthProvider,
  type SocialProviderEntry,
} from "./providers.js";
export { resolveAccountKey } from "./account-key.js";
export {
  authorizationResponseError,
  exchangeAndIdentify,
  finishOAuthSignIn,
  type IdentifiedAccount,
  type OAuthSignedIn,
} from "./callback-steps.js";
export type { CallbackInput } from "./callback-flow.js";
export {
  signInOAuthUser,
  type OAuthSignInInput,
  type OAuthSignInResult,
  type SelectedOAuthUser,
} from "./sign-in-user.js";
export { signInOAuthUserInTransaction, type SelectUserInTransaction } from "./transactional-sign-in.js";
export type { OAuthAccountInput, OAuthUserInput } from "./user-fields.js";
// The flow the social routes run with a provider; provider builders attach it as `flow`.
export { oauthFlow, type OAuthFlow } from "./flow.js";
export { startRedirectFlow, type RedirectFlowInput } from "./redirect-flow.js";
