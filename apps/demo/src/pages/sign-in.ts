import { layout } from "./layout.js";

/**
 * The passwordless sign-in page: a passkey, a magic link or a one-time code mailed to the
 * outbox, a guest session (`anonymous`), sign-up and sign-in with a username, and Sign-In with
 * Ethereum through the browser's wallet (`window.ethereum`, EIP-1193), and single sign-on
 * through a company's OpenID provider, with the current session.
 */
export function renderSignInPage(): string {
  return layout("Sign in without a password", "/sign-in", BODY, SCRIPT);
}

const BODY = `
<script src="/demo/webauthn.js"></script>
<div class="forms">
  <form id="passkey-sign-in">
    <h2>Passkey</h2>
    <p>Add one on the <a href="/security">Security</a> page first.</p>
    <button type="submit">Sign in with a passkey</button>
  </form>
  <form id="magic-link">
    <h2>Magic link</h2>
    <label>Email <input id="magic-link-email" type="email" autocomplete="email" required></label>
    <button type="submit">Mail me a sign-in link</button>
    <p id="magic-link-sent" hidden>The link is in the <a href="/outbox">outbox</a>.</p>
  </form>
  <form id="otp-send">
    <h2>One-time code</h2>
    <label>Email <input id="otp-email" type="email" autocomplete="email" required></label>
    <button type="submit">Mail me a code</button>
  </form>
  <form id="otp-verify" hidden>
    <h2>Enter the code</h2>
    <p>The code is in the <a href="/outbox" target="_blank">outbox</a>.</p>
    <label>Code <input id="otp-code" inputmode="numeric" autocomplete="one-time-code" required></label>
    <button type="submit">Sign in</button>
  </form>
  <form id="wallet-sign-in">
    <h2>Ethereum wallet</h2>
    <p>Your wallet signs a one-time sign-in message (EIP-4361); nothing is sent on chain.</p>
    <button type="submit">Sign in with a wallet</button>
    <p id="wallet-signed-in" hidden>Signed in as <code id="wallet-address"></code>.</p>
  </form>
  <form id="sso-sign-in">
    <h2>Single sign-on</h2>
    <p>For addresses whose company registered its provider on the <a href="/security">Security</a> page.</p>
    <label>Work email <input id="sso-email" type="email" autocomplete="email" required></label>
    <button type="submit">Sign in with SSO</button>
  </form>
  <form id="guest">
    <h2>Guest</h2>
    <p>Look around without an account; sign up on the <a href="/">Account</a> page later and
    the guest is replaced by the new account.</p>
    <button type="submit">Continue as a guest</button>
  </form>
</div>
<div class="forms">
  <form id="username-sign-up">
    <h2>Sign up with a username</h2>
    <label>Name <input id="username-sign-up-name" autocomplete="name" required></label>
    <label>Email <input id="username-sign-up-email" type="email" autocomplete="email" required></label>
    <label>Username <input id="username-sign-up-username" autocomplete="username" required></label>
    <span id="username-available" aria-live="polite"></span>
    <label>Password <input id="username-sign-up-password" type="password" autocomplete="new-password" required></label>
    <button type="submit">Sign up</button>
  </form>
  <form id="username-sign-in">
    <h2>Sign in with a username</h2>
    <label>Username <input id="username-sign-in-username" autocomplete="username" required></label>
    <label>Password <input id="username-sign-in-password" type="password" autocomplete="current-password" required></label>
    <button type="submit">Sign in</button>
  </form>
</div>
<h2>Session <button id="sign-out" type="button">Sign out</button></h2>
<pre id="session" aria-live="polite">loading…</pre>
`;

// Runs in the browser. The session box always shows what GET /get-session answered.
const SCRIPT = `
async function refresh() {
  $("session").textContent = JSON.stringify(await call("/get-session"), null, 2);
}

const params = new URLSearchParams(location.search);
// A magic link's or an SSO sign-in's failure comes back as ?error=.
const MAGIC_LINK_ERRORS = ["INVALID_TOKEN", "EXPIRED_TOKEN", "ATTEMPTS_EXCEEDED"];
if (params.get("error")) showError(MAGIC_LINK_ERRORS.includes(params.get("error"))
  ? "This sign-in link is invalid or has expired."
  : "Sign-in failed: " + params.get("error") + (params.get("error_description") ? " (" + params.get("error_description") + ")" : ""));

$("magic-link").addEventListener("submit", action(async () => {
  await call("/sign-in/magic-link", { email: $("magic-link-email").value, callbackURL: "/sign-in", errorCallbackURL: "/sign-in" });
  $("magic-link-sent").hidden = false;
}));
$("otp-send").addEventListener("submit", action(async () => {
  await call("/email-otp/send-verification-otp", { email: $("otp-email").value, type: "sign-in" });
  $("otp-verify").hidden = false;
  $("otp-code").focus();
}));
$("otp-verify").addEventListener("submit", action(async () => {
  await call("/sign-in/email-otp", { email: $("otp-email").value, otp: $("otp-code").value.trim() });
  $("otp-verify").hidden = true;
}, refresh));
$("guest").addEventListener("submit", action(() => call("/sign-in/anonymous", {}), refresh));
$("username-sign-up-username").addEventListener("change", action(async () => {
  const username = $("username-sign-up-username").value;
  const { available } = await call("/is-username-available", { username });
  $("username-available").textContent = available ? username + " is available" : username + " is taken";
}));
$("username-sign-up").addEventListener("submit", action(() => call("/sign-up/email", {
  name: $("username-sign-up-name").value, email: $("username-sign-up-email").value,
  username: $("username-sign-up-username").value, password: $("username-sign-up-password").value, callbackURL: "/",
}), refresh));
$("username-sign-in").addEventListener("submit", action(async () => {
  const answer = await call("/sign-in/username", {
    username: $("username-sign-in-username").value, password: $("username-sign-in-password").value,
  });
  if (answer && answer.twoFactorRedirect) location.assign("/two-factor");
}, refresh));
$("passkey-sign-in").addEventListener("submit", action(async () => {
  const optionsJSON = await call("/passkey/generate-authenticate-options");
  const response = await SimpleWebAuthnBrowser.startAuthentication({ optionsJSON });
  await call("/passkey/verify-authentication", { response });
}, refresh));
$("sign-out").addEventListener("click", action(() => call("/sign-out", {}), refresh));

$("sso-sign-in").addEventListener("submit", action(async () => {
  const { url } = await call("/sign-in/sso", { email: $("sso-email").value, callbackURL: "/sign-in", errorCallbackURL: "/sign-in" });
  location.assign(url);
}));

/** The EIP-4361 message the wallet signs: this site, the account, the chain and the server's nonce. */
function siweMessage({ address, chainId, nonce }) {
  return location.host + " wants you to sign in with your Ethereum account:\\n" + address + "\\n\\n"
    + "Sign in to the Latchkey demo.\\n\\n"
    + "URI: " + location.origin + "\\nVersion: 1\\nChain ID: " + chainId + "\\nNonce: " + nonce
    + "\\nIssued At: " + new Date().toISOString();
}

$("wallet-sign-in").addEventListener("submit", action(async () => {
  const wallet = window.ethereum;
  if (!wallet) throw new Error("No Ethereum wallet in this browser (window.ethereum is missing).");
  const [address] = await wallet.request({ method: "eth_requestAccounts" });
  const chainId = parseInt(await wallet.request({ method: "eth_chainId" }), 16);
  const { nonce } = await call("/siwe/nonce", {});
  const message = siweMessage({ address, chainId, nonce });
  const signature = await wallet.request({ method: "personal_sign", params: [message, address] });
  const { user } = await call("/siwe/verify", { message, signature });
  $("wallet-address").textContent = user.walletAddress;
  $("wallet-signed-in").hidden = false;
}, refresh));

refresh().catch((error) => showError(error.message));
`;
