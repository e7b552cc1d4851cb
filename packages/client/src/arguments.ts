// Arguments of the core and account methods: each object is sent as the JSON body (POST) or
// the query string (GET), key for key.

/** `signUp.email`: configured additional user fields go alongside. */
export interface SignUpEmailArgs {
  name: string;
  email: string;
  password: string;
  image?: string;
  callbackURL?: string;
  rememberMe?: boolean;
  [field: string]: unknown;
}

/** `signIn.email`. */
export interface SignInEmailArgs {
  email: string;
  password: string;
  callbackURL?: string;
  /** @default true */
  rememberMe?: boolean;
}

/** An ID token from a provider's own SDK, to sign in or link without a redirect. */
export interface IdTokenArgs {
  token: string;
  nonce?: string;
  accessToken?: string;
  refreshToken?: string;
  expiresAt?: number;
}

/** `signIn.social` (Generic OAuth providers too, with their provider id). */
export interface SocialSignInArgs {
  provider: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  disableRedirect?: boolean;
  idToken?: IdTokenArgs;
  scopes?: string[];
  requestSignUp?: boolean;
  loginHint?: string;
  additionalData?: Record<string, unknown>;
}

/** `linkSocial`. */
export interface LinkSocialArgs {
  provider: string;
  callbackURL?: string;
  errorCallbackURL?: string;
  disableRedirect?: boolean;
  idToken?: Omit<IdTokenArgs, "expiresAt">;
  scopes?: string[];
  requestSignUp?: boolean;
  additionalData?: Record<string, unknown>;
}

/** `signIn.oauth2` and `oauth2.link`: legacy Generic OAuth routes. */
export interface LegacyOAuth2Args {
  providerId: string;
  callbackURL?: string;
  errorCallbackURL?: string;
  newUserCallbackURL?: string;
  disableRedirect?: boolean;
  scopes?: string[];
  requestSignUp?: boolean;
  additionalData?: Record<string, unknown>;
}

/** The account routes select an account by its row id only (spec, rules for account routes 1). */
export interface AccountIdArgs {
  accountId: string;
}

/** `getSession`: both flags count as set when present (the server's rule). */
export interface GetSessionArgs {
  disableCookieCache?: boolean;
  disableRefresh?: boolean;
}

/** `signOut`. */
export interface SignOutArgs {
  callbackURL?: string;
  disableRedirect?: boolean;
}

/** `updateUser`: `name`, `image` and configured additional fields (`email` is refused). */
export interface UpdateUserArgs {
  name?: string;
  image?: string | null;
  [field: string]: unknown;
}

/** `changePassword`. */
export interface ChangePasswordArgs {
  newPassword: string;
  currentPassword: string;
  revokeOtherSessions?: boolean;
}

/** `changeEmail`. */
export interface ChangeEmailArgs {
  newEmail: string;
  callbackURL?: string;
}

/** `deleteUser`. */
export interface DeleteUserArgs {
  callbackURL?: string;
  password?: string;
  token?: string;
}

/** `sendVerificationEmail`. */
export interface SendVerificationEmailArgs {
  email: string;
  callbackURL?: string;
}

/** `verifyEmail` (a GET: sent as the query string). */
export interface VerifyEmailArgs {
  token: string;
  callbackURL?: string;
}

/** `requestPasswordReset`. */
export interface RequestPasswordResetArgs {
  email: string;
  redirectTo?: string;
}

/** `resetPassword`. */
export interface ResetPasswordArgs {
  newPassword: string;
  token?: string;
}
