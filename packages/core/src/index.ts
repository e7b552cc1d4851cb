// Public entry of @latchkey/core. Plugins and adapters import only from here.
export { createAuth, type Auth } from "./auth/create-auth.js";
export type {
  APICallArgs,
  APICallOptions,
  APIFunction,
  InferAPI,
  InferFields,
  InferSession,
  InferUser,
  PluginEndpoints,
} from "./auth/infer.js";
export type { AuthContext, PasswordContext, SessionConfig, SessionWithUser } from "./context.js";
export type {
  AdvancedOptions,
  CookieAttributes,
  EmailAndPasswordOptions,
  LatchkeyOptions,
  LatchkeyOptions as BetterAuthOptions,
  ModelOptions,
  SessionOptions,
} from "./options.js";
export type {
  ChangeEmailOptions,
  DeleteUserOptions,
  EmailLinkData,
  EmailVerificationOptions,
  PasswordResetOptions,
  UserEmailFlowOptions,
} from "./email-options.js";
export type { DynamicBaseURL } from "./auth/dynamic-base.js";
export type { UserProvisioningSource, ValidateUserInfo, ValidateUserInfoAction } from "./security/validate-user-info.js";
export type { LatchkeyPlugin, LatchkeyPlugin as BetterAuthPlugin, PluginInit, PluginRateLimitRule } from "./plugin.js";
export { findService, getService, provide, serviceKey, type ServiceKey, type ServiceProvision } from "./plugin-services.js";
export { BEARER_TOKEN_POLICY, type BearerTokenPolicy } from "./session/bearer-policy.js";

// Endpoints, routers, hooks
export {
  endpoint,
  type Endpoint,
  type EndpointMiddleware,
  type EndpointOptions,
  type Endpoints,
  type HTTPMethod,
} from "./api/endpoint.js";
export type { EndpointContext, RequestContext } from "./api/context.js";
export { inTransactionContext } from "./api/transaction-context.js";
export { createAuthMiddleware, type HookEntry, type HookMatcher, type HookMiddleware } from "./api/hooks.js";
export { email as emailFormat, isEmail } from "./api/validation.js";
// For plugin sign-in routes that refuse an unverified user as core's sign-in does (username).
export { mailVerificationOnSignIn } from "./mail/verification-mail.js";

// Errors
export { APIError, BetterAuthError, STATUS, type APIErrorBody, type StatusName } from "./errors/api-error.js";
export { BASE_ERROR_CODES, fail, type BaseErrorCode } from "./errors/index.js";
export { defineErrorCodes, type ErrorCodes, type PluginErrorCodes } from "./errors/define-error-codes.js";
// For plugins calling the application's callbacks (hooks, senders, validators): an `APIError`
// thrown there keeps its code, which the application is free to choose.
export { applicationCall, applicationCallbacks } from "./api/declared-codes.js";

// Storage
export type {
  Adapter,
  AdapterFactory,
  AdapterInit,
  FindManyArgs,
  FindPageArgs,
  Page,
  PageJoin,
  Row,
  SchemaProblem,
  Where,
  WhereOperator,
} from "./db/adapter.js";
export type {
  DBField,
  DBFieldType,
  ModelIndex,
  ModelSchema,
  ResolvedField,
  ResolvedModel,
  ResolvedSchema,
  SchemaDefinition,
} from "./db/field.js";
export type { Account, Session, SessionFields, User, UserFields, Verification } from "./db/models.js";
export type { DatabaseHookContext, DatabaseHooks } from "./db/database-hooks.js";
export type { InternalAdapter } from "./db/internal-adapter.js";
export { coreSchema, rateLimitSchema } from "./db/core-schema.js";
export { assertOnDelete, orderedModels, resolveSchema, type ModelOverrides } from "./db/resolve-schema.js";
export { ON_DELETE_ACTIONS, type OnDeleteAction } from "./db/field.js";
export { assertDelta, assertPaging, assertStorable, comparableWhere } from "./db/field-value.js";
export { memoryAdapter } from "./db/memory-adapter.js";
export { dateFromText } from "./db/stored-date.js";
export { findPage, joinRows } from "./db/find-page.js";
export { toOutput } from "./db/output.js";
// Additional user fields from client input, for plugin routes that create users (email OTP sign-in).
export { parseInput } from "./db/field-input.js";
export { fieldValueSchema, type FieldValueSchema } from "./db/field-value-schema.js";
export { incrementStoredCounter, parseStoredJSON, takeStoredValue, ttlSeconds, type SecondaryStorage } from "./db/secondary-storage.js";
export type { SessionStorageOptions, StoreIdentifierConfig, StoreIdentifierOption, VerificationStorageOptions } from "./db/storage-options.js";

// Sessions and cookies
export {
  getSessionFromRequest,
  freshSessionMiddleware,
  sensitiveSessionMiddleware,
  sessionMiddleware,
  type WithSession,
} from "./session/session-middleware.js";
export { deleteSessionCookie, setSessionCookie } from "./session/session-cookie.js";
export { setCookieCache } from "./cookies/cookie-cache.js";
export type { SessionData } from "./cookies/cookie-cache-codec.js";
export { COOKIE_CACHE_SIGNER, type CookieCacheSigner } from "./cookies/cookie-cache-signer.js";
export type {
  CookieCacheConfig,
  CookieCacheOptions,
  CookieCacheStrategy,
  CookieCacheVersion,
} from "./cookies/cookie-cache-options.js";
export { createAuthCookies, type AuthCookies, type CookieSpec } from "./cookies/auth-cookies.js";
export { parseCookieHeader, serializeCookie } from "./cookies/serialize.js";
export { assertTrustedCallbackURL, formCsrfMiddleware } from "./security/origin-check.js";
// For plugin flows that mail codes or links: same answer, same time, known address or not.
export { deliver, withMinimumDuration } from "./mail/mail-delivery.js";
export { isTrustedOrigin, matchesOriginPattern } from "./security/trusted-origins.js";
export { getClientIP, normalizeIP, type IPAddressOptions } from "./ip.js";
export type {
  RateLimitConsumeStorage,
  RateLimitCustomRule,
  RateLimitDecision,
  RateLimitGetSetStorage,
  RateLimitOptions,
  RateLimitRecord,
  RateLimitRule,
  RateLimitStorage,
} from "./rate-limit/options.js";

// OAuth 2.0 / OpenID Connect client, social providers, account options
export * from "./oauth2/index.js";
export * from "./net/index.js";
// The callback route's flow, for plugins serving it under other paths (Generic OAuth's legacy routes);
// `startRedirectFlow` comes with the OAuth client above.
export { runOAuthCallback } from "./routes/oauth-callback.js";

// Crypto and logging
export * from "./crypto/index.js";
export { createLogger, type Logger, type LoggerOptions, type LogLevel } from "./logger.js";
