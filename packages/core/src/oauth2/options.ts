import type { Awaitable, OAuthProvider, ProviderOptions } from "./types.js";

/** `account.accountLinking`: when a provider account may join an existing user. */
export interface AccountLinkingOptions {
  /** @default true */
  enabled?: boolean;
  /** Never link on sign-in by matching email; only `/link-social` links. @default false */
  disableImplicitLinking?: boolean;
  /** Link on sign-in only when the local user's email is verified. @default true */
  requireLocalEmailVerified?: boolean;
  /** Providers whose emails are trusted even when not reported verified. @default [] */
  trustedProviders?: string[] | ((request?: Request) => Awaitable<string[]>);
  /** `/link-social` may link an account whose email differs from the user's. @default false */
  allowDifferentEmails?: boolean;
  /** `/unlink-account` may remove the last account. @default false */
  allowUnlinkingAll?: boolean;
  /** Copy the linked provider's name, image and mapped fields onto the user. @default false */
  updateUserInfoOnLink?: boolean;
}

/** The `account` option group (besides `modelName`, `fields`, `additionalFields`). */
export interface AccountOptions {
  accountLinking?: AccountLinkingOptions;
  /** Store access and refresh tokens encrypted (XChaCha20-Poly1305; ID tokens stay plain). @default false */
  encryptOAuthTokens?: boolean;
  /** Store the tokens of each sign-in on the account (never its scope). @default true */
  updateAccountOnSignIn?: boolean;
  /**
   * Let the account routes select an account by `providerId` again (1.0 behaviour).
   * @deprecated select by the account row `id` (`accountId`); this will be removed.
   * @default false
   */
  legacyAccountSelection?: boolean;
  /** Where OAuth state lives: the verification storage (database or secondary storage). @default "database" */
  storeStateStrategy?: "database";
  /** Skip the signed `state` cookie check on callbacks (e.g. cross-device flows). @default false */
  skipStateCookieCheck?: boolean;
}

/** A reference-style provider config (`{ clientId, clientSecret, … }`), built by a registered factory. */
export type SocialProviderConfig = ProviderOptions & { enabled?: boolean; [option: string]: unknown };

/** Builds a provider from its config; provider packages and plugins register these by provider id. */
export type SocialProviderFactory = (config: SocialProviderConfig) => OAuthProvider;

/** One `socialProviders` entry: a provider, a config for a registered factory, or a function of either. */
export type SocialProviderValue =
  | OAuthProvider
  | SocialProviderConfig
  | (() => Awaitable<OAuthProvider | SocialProviderConfig | null | undefined>);

/** The `socialProviders` option: provider id → provider (or config, or a function returning one). */
export type SocialProviders = Record<string, SocialProviderValue>;
