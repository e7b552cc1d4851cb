/** A user's core fields, as the API answers them. */
export interface UserFields {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A user row (core fields plus configured additional fields). */
export interface User extends UserFields {
  [field: string]: unknown;
}

/** A session's core fields, as the API answers them. */
export interface SessionFields {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  ipAddress?: string | null;
  userAgent?: string | null;
}

/** A session row. */
export interface Session extends SessionFields {
  [field: string]: unknown;
}

/** An account row: a credential (password) or a linked provider account. */
export interface Account {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  password?: string | null;
  accessToken?: string | null;
  refreshToken?: string | null;
  idToken?: string | null;
  accessTokenExpiresAt?: Date | null;
  refreshTokenExpiresAt?: Date | null;
  scope?: string | null;
  createdAt: Date;
  updatedAt: Date;
  [field: string]: unknown;
}

/** A verification row (reset tokens, OAuth state, …). */
export interface Verification {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  [field: string]: unknown;
}
