import { layout } from "./layout.js";

/**
 * The OpenID provider's login page (`loginPage`): the authorization request arrives signed in
 * the query; signing in with it as `oauth_query` resumes the authorization, and the server
 * answers with where the browser goes next (the consent page, or the application). An account
 * with two-factor sign-in gets a second step on the same page: a code from the authenticator
 * app or a backup code, sent with the same `oauth_query`, finishes the sign-in and resumes.
 */
export function renderOAuthSignInPage(): string {
  return layout("Sign in to continue", "/oauth/sign-in", BODY, SCRIPT);
}

const BODY = `
<p>An application asks you to sign in with your Latchkey demo account
(<span id="oauth-client">…</span>). No account yet? Sign up on the <a href="/">Account</a> page,
then come back with your browser's Back button.</p>
<div id="oauth-password-step">
  <form id="oauth-sign-in">
    <label>Email <input id="oauth-email" type="email" autocomplete="email" required></label>
    <label>Password <input id="oauth-password" type="password" autocomplete="current-password" required></label>
    <button type="submit">Sign in and continue</button>
  </form>
</div>
<div id="oauth-second-factor" hidden>
  <p>Your password was right; one more step.</p>
  <div class="forms">
    <form id="oauth-totp">
      <label>Code from your authenticator app <input id="oauth-totp-code" inputmode="numeric" autocomplete="one-time-code" required></label>
      <button type="submit">Verify and continue</button>
    </form>
    <form id="oauth-backup">
      <label>Or a backup code <input id="oauth-backup-code" autocomplete="off" required></label>
      <button type="submit">Use backup code and continue</button>
    </form>
  </div>
</div>
`;

// Runs in the browser. The query is the provider's signed request: passed back untouched, with
// the password and again with the second factor (the two_factor cookie carries the challenge);
// the provider resumes the authorization after whichever call creates the session.
const SCRIPT = `
const oauthQuery = location.search.slice(1);
$("oauth-client").textContent = new URLSearchParams(oauthQuery).get("client_id") || "no application named";

function continueTo(answer) {
  if (!answer || !answer.url) throw new Error("The server did not say where to continue.");
  location.assign(answer.url);
}

$("oauth-sign-in").addEventListener("submit", action(async () => {
  const answer = await call("/sign-in/email", {
    email: $("oauth-email").value, password: $("oauth-password").value, oauth_query: oauthQuery,
  });
  if (answer && answer.twoFactorRedirect) {
    $("oauth-password-step").hidden = true;
    $("oauth-second-factor").hidden = false;
    $("oauth-totp-code").focus();
    return;
  }
  continueTo(answer);
}));

const verifyWith = (path, input) => action(async () => {
  continueTo(await call(path, { code: $(input).value.trim(), oauth_query: oauthQuery }));
});
$("oauth-totp").addEventListener("submit", verifyWith("/two-factor/verify-totp", "oauth-totp-code"));
$("oauth-backup").addEventListener("submit", verifyWith("/two-factor/verify-backup-code", "oauth-backup-code"));
`;
