// Wire shapes of the core and account routes (reference core.md §9). Timestamps arrive as
// ISO strings and are revived as `Date`. Index signatures admit configured additional fields.

/** A user as the server returns it. */
export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image?: string | null;
  createdAt: Date;
  updatedAt: Date;
  [field: string]: unknown;
}

/** A session row as the server returns it (its `token` included). */
export interface Session {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  ipAddress?: string | null;
  userAgent?: string | null;
  [field: string]: unknown;
}

/** `GET /get-session`: the session and its user. */
export interface SessionWithUser {
  session: Session;
  user: User;
}

/** One linked account of `GET /list-accounts` (no tokens, no password). */
export interface AccountSummary {
  id: string;
  providerId: string;
  accountId: string;
  userId: string;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
  [field: string]: unknown;
}

/** `POST /get-access-token`. */
export interface AccessTokenResult {
  accessToken: string;
  accessTokenExpiresAt?: Date;
  scopes: string[];
  idToken?: string;
}

/** `POST /refresh-token`: the new tokens; `accountId` is the account row id. */
export interface RefreshTokenResult {
  accessToken?: string;
  refreshToken?: string;
  accessTokenExpiresAt?: Date;
  refreshTokenExpiresAt?: Date;
  scope?: string | null;
  idToken?: string | null;
  providerId: string;
  accountId: string;
}

/** `GET /account-info`: the provider's view of the user, its raw profile, and the account. */
export interface AccountInfoResult {
  user: { id: string; name?: string; email?: string | null; image?: string; emailVerified: boolean };
  data: Record<string, unknown>;
  account?: { id: string; providerId: string; accountId: string };
}

/** `{ status }` answers of most account routes. */
export interface StatusResult {
  status: boolean;
}

/** An OAuth redirect answer: where to send the browser. */
export interface RedirectResult {
  url: string;
  redirect: boolean;
}

/** `POST /sign-in/email`. `url` is the `callbackURL` when one was given. */
export interface SignInResult {
  redirect: boolean;
  token: string;
  url?: string;
  user: User;
}

/** `POST /sign-up/email` and `POST /change-password`: `token` is null when no session was made. */
export interface TokenAndUser {
  token: string | null;
  user: User;
}

/** `POST /sign-in/social`: a redirect to the provider, or a session from an ID token. */
export type SocialSignInResult =
  RedirectResult | { redirect: false; token: string; url?: undefined; user: User };

/** `POST /link-social`: a redirect, or `status` for an ID-token link. */
export interface LinkSocialResult extends RedirectResult {
  status?: boolean;
}
