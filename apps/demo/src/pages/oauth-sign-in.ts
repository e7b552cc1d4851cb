import { layout } from "./layout.js";

/**
 * The OpenID provider's login page (`loginPage`): the authorization request arrives signed in
 * the query; signing in with it as `oauth_query` resumes the authorization, and the server
 * answers with where the browser goes next (the consent page, or the application).
 */
export function renderOAuthSignInPage(): string {
  return layout("Sign in to continue", "/oauth/sign-in", BODY, SCRIPT);
}

const BODY = `
<p>An application asks you to sign in with your Latchkey demo account
(<span id="oauth-client">…</span>). No account yet? Sign up on the <a href="/">Account</a> page,
then come back with your browser's Back button.</p>
<form id="oauth-sign-in">
  <label>Email <input id="oauth-email" type="email" autocomplete="email" required></label>
  <label>Password <input id="oauth-password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in and continue</button>
</form>
`;

// Runs in the browser. The query is the provider's signed request: passed back untouched.
const SCRIPT = `
const oauthQuery = location.search.slice(1);
$("oauth-client").textContent = new URLSearchParams(oauthQuery).get("client_id") || "no application named";

$("oauth-sign-in").addEventListener("submit", action(async () => {
  const answer = await call("/sign-in/email", {
    email: $("oauth-email").value, password: $("oauth-password").value, oauth_query: oauthQuery,
  });
  if (answer && answer.twoFactorRedirect) throw new Error("Accounts with two-factor sign-in cannot use this page yet.");
  if (!answer || !answer.url) throw new Error("The server did not say where to continue.");
  location.assign(answer.url);
}));
`;
