import { createRouter, type AuthRouter } from "../api/router.js";
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
export function coreRouter(): AuthRouter {
  return createRouter()
    .add("signUpEmail", signUpEmail)
    .add("signInEmail", signInEmail)
    .add("getSession", getSession)
    .add("signOut", signOut)
    .add("updateUser", updateUser)
    .add("updateSession", updateSession)
    .add("changePassword", changePassword)
    .add("setPassword", setPassword)
    .add("verifyPassword", verifyPassword)
    .add("listSessions", listSessions)
    .add("revokeSession", revokeSession)
    .add("revokeSessions", revokeSessions)
    .add("revokeOtherSessions", revokeOtherSessions)
    .add("sendVerificationEmail", sendVerificationEmail)
    .add("verifyEmail", verifyEmail)
    .add("requestPasswordReset", requestPasswordReset)
    .add("requestPasswordResetCallback", requestPasswordResetCallback)
    .add("resetPassword", resetPassword)
    .add("changeEmail", changeEmail)
    .add("deleteUser", deleteUser)
    .add("deleteUserCallback", deleteUserCallback)
    .add("signInSocial", signInSocial)
    .add("callbackOAuth", oauthCallback)
    .add("linkSocialAccount", linkSocial)
    .add("listUserAccounts", listAccounts)
    .add("unlinkAccount", unlinkAccount)
    .add("getAccessToken", getAccessToken)
    .add("refreshToken", refreshToken)
    .add("accountInfo", accountInfo)
    .add("ok", ok)
    .add("error", errorPage);
}
