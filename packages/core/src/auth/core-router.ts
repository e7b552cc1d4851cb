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
    .add("ok", ok)
    .add("error", errorPage);
}
