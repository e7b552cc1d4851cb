import type * as A from "./arguments.js";
import type * as M from "./models.js";
import type { Call, ClientResult, QueryValue, RequestOptions } from "./result.js";

type Method<Args, T> = (args: Args, options?: RequestOptions) => Promise<ClientResult<T>>;
type OptionalMethod<Args, T> = (args?: Args, options?: RequestOptions) => Promise<ClientResult<T>>;

/** The core and account methods; each resolves to `{ data, error }`. */
export interface CoreMethods {
  signUp: {
    /** `POST /sign-up/email`: creates the user and (unless configured otherwise) a session. */
    email: Method<A.SignUpEmailArgs, M.TokenAndUser>;
  };
  signIn: {
    /** `POST /sign-in/email`. */
    email: Method<A.SignInEmailArgs, M.SignInResult>;
    /** `POST /sign-in/social`: the provider's authorization URL, or a session for an `idToken`. */
    social: Method<A.SocialSignInArgs, M.SocialSignInResult>;
    /** `POST /sign-in/oauth2`: only on a server with Generic OAuth's legacy routes. */
    oauth2: Method<A.LegacyOAuth2Args, M.RedirectResult>;
  };
  oauth2: {
    /** `POST /oauth2/link`: only on a server with Generic OAuth's legacy routes. */
    link: Method<A.LegacyOAuth2Args, M.RedirectResult>;
  };
  /** `GET /get-session`: the session, or `null` without one. */
  getSession: OptionalMethod<A.GetSessionArgs, M.SessionWithUser | null>;
  /** `POST /sign-out`: `{ success: true }`, with or without a session. */
  signOut: OptionalMethod<A.SignOutArgs, { success: boolean }>;
  /** `GET /list-accounts`: the user's linked accounts. */
  listAccounts: OptionalMethod<Record<string, never>, M.AccountSummary[]>;
  /** `POST /get-access-token`: a usable access token of the account, refreshed if due. */
  getAccessToken: Method<A.AccountIdArgs, M.AccessTokenResult>;
  /** `POST /refresh-token`: refreshes the account's tokens now. */
  refreshToken: Method<A.AccountIdArgs, M.RefreshTokenResult>;
  /** `GET /account-info?accountId=…`: the provider's profile of the account. */
  accountInfo: Method<A.AccountIdArgs, M.AccountInfoResult>;
  /** `POST /unlink-account`: needs a fresh session. */
  unlinkAccount: Method<A.AccountIdArgs, M.StatusResult>;
  /** `POST /link-social`: links another provider account to the signed-in user. */
  linkSocial: Method<A.LinkSocialArgs, M.LinkSocialResult>;
  /** `POST /update-user`. */
  updateUser: Method<A.UpdateUserArgs, M.StatusResult>;
  /** `POST /update-session`: the session's additional fields. */
  updateSession: Method<Record<string, unknown>, { session: M.Session }>;
  /** `POST /change-password`. */
  changePassword: Method<A.ChangePasswordArgs, M.TokenAndUser>;
  /** `POST /change-email`. */
  changeEmail: Method<A.ChangeEmailArgs, M.StatusResult>;
  /** `POST /set-password`: a Latchkey route (server-only in the reference). */
  setPassword: Method<{ newPassword: string }, M.StatusResult>;
  /** `POST /verify-password`. */
  verifyPassword: Method<{ password: string }, M.StatusResult>;
  /** `POST /delete-user`. */
  deleteUser: OptionalMethod<A.DeleteUserArgs, { success: boolean; message: string }>;
  /** `GET /list-sessions`: the user's active sessions; needs a fresh session. */
  listSessions: OptionalMethod<Record<string, never>, M.Session[]>;
  /** `POST /revoke-session`: one of the user's sessions, by token. */
  revokeSession: Method<{ token: string }, M.StatusResult>;
  /** `POST /revoke-sessions`: every session of the user, this one included. */
  revokeSessions: OptionalMethod<Record<string, never>, M.StatusResult>;
  /** `POST /revoke-other-sessions`: every session but this one. */
  revokeOtherSessions: OptionalMethod<Record<string, never>, M.StatusResult>;
  /** `POST /send-verification-email`. */
  sendVerificationEmail: Method<A.SendVerificationEmailArgs, M.StatusResult>;
  /** `GET /verify-email?token=…`. */
  verifyEmail: Method<A.VerifyEmailArgs, { status: boolean; user: M.User | null }>;
  /** `POST /request-password-reset`: the same answer whether or not the email exists. */
  requestPasswordReset: Method<A.RequestPasswordResetArgs, { status: boolean; message: string }>;
  /** `POST /reset-password`. */
  resetPassword: Method<A.ResetPasswordArgs, M.StatusResult>;
}

/** Builds the core methods on one `Call`. */
export function coreMethods(call: Call): CoreMethods {
  // The reference client sends `{}` on a POST without arguments; so does this one.
  const post =
    <Args, T>(path: string) =>
    (args?: Args, options?: RequestOptions): Promise<ClientResult<T>> =>
      call<T>(path, { ...options, method: "POST", body: args ?? {} });
  const get =
    <Args, T>(path: string) =>
    (args?: Args, options?: RequestOptions): Promise<ClientResult<T>> =>
      call<T>(path, { ...options, method: "GET", query: args as Record<string, QueryValue> | undefined });
  return {
    signUp: { email: post("/sign-up/email") },
    signIn: {
      email: post("/sign-in/email"),
      social: post("/sign-in/social"),
      oauth2: post("/sign-in/oauth2"),
    },
    oauth2: { link: post("/oauth2/link") },
    // The server takes a flag's presence as "on" (`?disableRefresh=false` disables refresh),
    // so a `false` flag is left out rather than sent.
    getSession: (args, options) =>
      call("/get-session", {
        ...options,
        method: "GET",
        query: {
          disableCookieCache: args?.disableCookieCache || undefined,
          disableRefresh: args?.disableRefresh || undefined,
        },
      }),
    signOut: post("/sign-out"),
    listAccounts: get("/list-accounts"),
    getAccessToken: post("/get-access-token"),
    refreshToken: post("/refresh-token"),
    accountInfo: get("/account-info"),
    unlinkAccount: post("/unlink-account"),
    linkSocial: post("/link-social"),
    updateUser: post("/update-user"),
    updateSession: post("/update-session"),
    changePassword: post("/change-password"),
    changeEmail: post("/change-email"),
    setPassword: post("/set-password"),
    verifyPassword: post("/verify-password"),
    deleteUser: post("/delete-user"),
    listSessions: get("/list-sessions"),
    revokeSession: post("/revoke-session"),
    revokeSessions: post("/revoke-sessions"),
    revokeOtherSessions: post("/revoke-other-sessions"),
    sendVerificationEmail: post("/send-verification-email"),
    verifyEmail: get("/verify-email"),
    requestPasswordReset: post("/request-password-reset"),
    resetPassword: post("/reset-password"),
  };
}
