import { createRouter, type AuthRouter } from "../api/router.js";
import { errorPage } from "../routes/error-page.js";
import { getSession } from "../routes/get-session.js";
import { ok } from "../routes/ok.js";
import { signInEmail } from "../routes/sign-in.js";
import { signOut } from "../routes/sign-out.js";
import { signUpEmail } from "../routes/sign-up.js";

/** Core's own endpoints, under the reference's `auth.api` names. */
export function coreRouter(): AuthRouter {
  return createRouter()
    .add("signUpEmail", signUpEmail)
    .add("signInEmail", signInEmail)
    .add("getSession", getSession)
    .add("signOut", signOut)
    .add("ok", ok)
    .add("error", errorPage);
}
