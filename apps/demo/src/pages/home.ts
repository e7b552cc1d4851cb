import { layout } from "./layout.js";

/**
 * The account page: sign up, sign in (again, to add another account), forgotten password, the
 * current session, the accounts signed in on this browser (switch, sign out of one) and a JWT
 * for the current session.
 */
export function renderHomePage(): string {
  return layout("Account", "/", BODY, SCRIPT);
}

const BODY = `
<div class="forms">
  <form id="sign-up">
    <h2>Sign up</h2>
    <label>Name <input id="sign-up-name" name="name" autocomplete="name" required></label>
    <label>Email <input id="sign-up-email" name="email" type="email" autocomplete="email" required></label>
    <label>Password <input id="sign-up-password" name="password" type="password" autocomplete="new-password" required></label>
    <button type="submit">Sign up</button>
  </form>
  <form id="sign-in">
    <h2>Sign in</h2>
    <label>Email <input id="sign-in-email" name="email" type="email" autocomplete="email" required></label>
    <label>Password <input id="sign-in-password" name="password" type="password" autocomplete="current-password" required></label>
    <label class="inline"><input id="sign-in-remember" name="rememberMe" type="checkbox" checked> Remember me</label>
    <button type="submit">Sign in</button>
  </form>
  <form id="forgot">
    <h2>Forgot password</h2>
    <label>Email <input id="forgot-email" name="email" type="email" autocomplete="email" required></label>
    <button type="submit">Mail me a reset link</button>
    <p id="forgot-sent" hidden>If the address has an account, a link is in the <a href="/outbox">outbox</a>.</p>
  </form>
</div>
<h2>Session <button id="sign-out" type="button">Sign out of every account</button></h2>
<pre id="session" aria-live="polite">loading…</pre>
<h2>Accounts on this browser</h2>
<p>Sign in again above to add another account; switch between them here.</p>
<ul id="accounts" class="rows"></ul>
<h2>JWT <button id="get-jwt" type="button">Get a JWT</button></h2>
<p>Signed with the key published at <a href="/api/auth/jwks">/api/auth/jwks</a>.</p>
<pre id="jwt-claims" hidden></pre>
`;

// Runs in the browser. The session box always shows what GET /get-session answered.
const SCRIPT = `
async function refresh() {
  const session = await showAccounts("accounts", refresh);
  $("session").textContent = JSON.stringify(session, null, 2);
  if (!session) $("jwt-claims").hidden = true;
}

function decodeClaims(token) {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0))));
}

$("sign-up").addEventListener("submit", action(() => call("/sign-up/email", {
  name: $("sign-up-name").value, email: $("sign-up-email").value, password: $("sign-up-password").value, callbackURL: "/",
}), refresh));
$("sign-in").addEventListener("submit", action(async () => {
  const answer = await call("/sign-in/email", {
    email: $("sign-in-email").value, password: $("sign-in-password").value, rememberMe: $("sign-in-remember").checked,
  });
  if (answer && answer.twoFactorRedirect) location.assign("/two-factor");
}, refresh));
$("forgot").addEventListener("submit", action(async () => {
  await call("/request-password-reset", { email: $("forgot-email").value, redirectTo: "/reset-password" });
  $("forgot-sent").hidden = false;
}));
$("sign-out").addEventListener("click", action(() => call("/sign-out", {}), refresh));
$("get-jwt").addEventListener("click", action(async () => {
  const { token } = await call("/token");
  $("jwt-claims").textContent = JSON.stringify({ token, claims: decodeClaims(token) }, null, 2);
  $("jwt-claims").hidden = false;
}));

refresh().catch((error) => showError(error.message));
`;
