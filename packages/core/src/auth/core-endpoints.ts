import { errorPage } from "../routes/error-page.js";
import { getSession } from "../routes/get-session.js";
import { ok } from "../routes/ok.js";
import { signInEmail } from "../routes/sign-in.js";
import { signOut } from "../routes/sign-out.js";
import { signUpEmail } from "../routes/sign-up.js";
import { changePassword, setPassword, verifyPassword } from "../routes/password.js";
import { listSessions, revokeOtherSessions, revokeSession, revokeSessions } from "../routes/sessions.js";
import { updateSession, updateUser } from "../routes/update-user.js";
import { changeEmail } from "../routes/change-email.js";
import { deleteUser, deleteUserCallback } from "../routes/delete-user.js";
import { sendVerificationEmail, verifyEmail } from "../routes/email-verification.js";
import {
  requestPasswordReset,
  requestPasswordResetCallback,
  resetPassword,
} from "../routes/password-reset.js";
import { signInSocial } from "../routes/sign-in-social.js";
import { oauthCallback } from "../routes/oauth-callback.js";
import { linkSocial } from "../routes/link-social.js";
import { listAccounts, unlinkAccount } from "../routes/accounts.js";
import { accountInfo, getAccessToken, refreshToken } from "../routes/account-tokens.js";

/** Core's own endpoints, under the reference's `auth.api` names. */
export const coreEndpoints = {
  signUpEmail,
  signInEmail,
  getSession,
  signOut,
  updateUser,
  updateSession,
  changePassword,
  setPassword,
  verifyPassword,
  listSessions,
  revokeSession,
  revokeSessions,
  revokeOtherSessions,
  sendVerificationEmail,
  verifyEmail,
  requestPasswordReset,
  requestPasswordResetCallback,
  resetPassword,
  changeEmail,
  deleteUser,
  deleteUserCallback,
  signInSocial,
  callbackOAuth: oauthCallback,
  linkSocialAccount: linkSocial,
  listUserAccounts: listAccounts,
  unlinkAccount,
  getAccessToken,
  refreshToken,
  accountInfo,
  ok,
  error: errorPage,
};

/** The type of core's endpoint record. */
export type CoreEndpoints = typeof coreEndpoints;
