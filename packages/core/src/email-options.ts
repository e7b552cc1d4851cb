import type { User } from "./db/models.js";

/** What a mail sender receives: the user, the link to put in the mail and the bare token. */
export interface EmailLinkData {
  user: User;
  /** The full link (it carries the token). */
  url: string;
  /** The token alone, for apps that build their own link. */
  token: string;
}

/** `emailVerification` option group, with the reference's names and defaults. */
export interface EmailVerificationOptions {
  /** Sends the verification mail. Without it, `/send-verification-email` answers 400. */
  sendVerificationEmail?: (data: EmailLinkData, request?: Request) => Promise<void>;
  /** Send the mail after sign-up. @default emailAndPassword.requireEmailVerification */
  sendOnSignUp?: boolean;
  /** Send the mail when an unverified user is refused at sign-in. @default false */
  sendOnSignIn?: boolean;
  /** Open a session when the link is followed. @default false */
  autoSignInAfterVerification?: boolean;
  /** Seconds the verification token is valid. @default 3600 */
  expiresIn?: number;
  /** Runs before an unverified user is marked verified. */
  beforeEmailVerification?: (user: User, request?: Request) => Promise<void>;
  /** Runs after a user is marked verified (also when a changed email is verified). */
  afterEmailVerification?: (user: User, request?: Request) => Promise<void>;
}

/** The `emailAndPassword` options of the password-reset and sign-up flows. */
export interface PasswordResetOptions {
  /** Sends the reset mail. Without it, `/request-password-reset` answers 400 `RESET_PASSWORD_DISABLED`. */
  sendResetPassword?: (data: EmailLinkData, request?: Request) => Promise<void>;
  /** Seconds a reset token is valid. @default 3600 */
  resetPasswordTokenExpiresIn?: number;
  /** Runs after a password was reset. */
  onPasswordReset?: (data: { user: User }, request?: Request) => Promise<void>;
  /** End every session of the user when the password is reset. @default false */
  revokeSessionsOnPasswordReset?: boolean;
  /**
   * Runs when someone signs up with an email that is taken, in the modes that hide that
   * (`requireEmailVerification` or `autoSignIn: false`).
   */
  onExistingUserSignUp?: (data: { user: User }, request?: Request) => Promise<void>;
  /** Builds the fake user answered for a taken email in those modes (plugins' extra fields). */
  customSyntheticUser?: (params: {
    coreFields: {
      name: string;
      email: string;
      emailVerified: boolean;
      image: string | null;
      createdAt: Date;
      updatedAt: Date;
    };
    additionalFields: Record<string, unknown>;
    id: string;
  }) => Record<string, unknown>;
}

/** `user.changeEmail` option group. */
export interface ChangeEmailOptions {
  /** @default false */
  enabled: boolean;
  /** Mails the current address first; the link then mails the new address. */
  sendChangeEmailConfirmation?: (
    data: { user: User; newEmail: string; url: string; token: string },
    request?: Request,
  ) => Promise<void>;
  /** Change an unverified user's email at once. @default false */
  updateEmailWithoutVerification?: boolean;
}

/** `user.deleteUser` option group. */
export interface DeleteUserOptions {
  /** Without it `/delete-user` answers 404. @default false */
  enabled?: boolean;
  /** Mails a confirmation link instead of deleting at once. */
  sendDeleteAccountVerification?: (data: EmailLinkData, request?: Request) => Promise<void>;
  /** Runs before the user is deleted; throw an `APIError` to refuse. */
  beforeDelete?: (user: User, request?: Request) => Promise<void>;
  /** Runs after the user, its sessions and accounts are deleted. */
  afterDelete?: (user: User, request?: Request) => Promise<void>;
  /** Seconds a delete-account token is valid. @default 86400 */
  deleteTokenExpiresIn?: number;
}

/** The `user` options of the change-email and delete-user flows. */
export interface UserEmailFlowOptions {
  changeEmail?: ChangeEmailOptions;
  deleteUser?: DeleteUserOptions;
}
