import { layout } from "./layout.js";

/**
 * The security page of the signed-in user: the accounts signed in on this browser (switch
 * between them), two-factor sign-in (enable with the password, scan the QR code of the TOTP URI,
 * keep the backup codes, confirm with a first code; disable), passkeys (register one in this
 * browser, list, delete), API keys (create, shown once; list; revoke) and OAuth applications
 * that sign their users in through the demo (register, shown once; list) and single sign-on
 * providers: a company's OpenID provider for the addresses of its domain (register, list, delete).
 */
export function renderSecurityPage(): string {
  return layout("Security", "/security", BODY, SCRIPT);
}

const BODY = `
<script src="/demo/webauthn.js"></script>
<p id="signed-out" hidden>Sign in on the <a href="/">Account</a> page first.</p>
<div id="signed-in" hidden>
  <p>Signed in as <strong id="current-email"></strong>.</p>
  <h2>Accounts on this browser</h2>
  <p>Add one by signing in again on the <a href="/">Account</a> page.</p>
  <ul id="accounts" class="rows"></ul>
  <h2>Two-factor sign-in: <span id="tf-status">…</span></h2>
  <form id="tf-enable" hidden>
    <p>After your password, sign-ins will ask for a code from an authenticator app.</p>
    <label>Password <input id="tf-enable-password" type="password" autocomplete="current-password" required></label>
    <button type="submit">Enable two-factor</button>
  </form>
  <div id="tf-setup" hidden>
    <p>Scan this with an authenticator app, or enter the URI by hand:</p>
    <img id="tf-qr" alt="QR code of the TOTP URI" width="205" height="205">
    <pre id="tf-uri"></pre>
    <p>Backup codes: each signs in once when the app is not at hand. Keep them somewhere safe.</p>
    <ul id="tf-backup-codes"></ul>
    <form id="tf-verify">
      <label>Code from the app <input id="tf-verify-code" inputmode="numeric" autocomplete="one-time-code" required></label>
      <button type="submit">Confirm and turn on</button>
    </form>
  </div>
  <form id="tf-disable" hidden>
    <label>Password <input id="tf-disable-password" type="password" autocomplete="current-password" required></label>
    <button type="submit">Disable two-factor</button>
  </form>
  <h2>Passkeys</h2>
  <form id="add-passkey">
    <label>Name <input id="passkey-name" placeholder="this browser"></label>
    <button type="submit">Add a passkey</button>
  </form>
  <ul id="passkeys" class="rows"></ul>
  <h2>API keys</h2>
  <p>A key sent as <code>x-api-key</code> acts as you: try
  <code>curl -H "x-api-key: …" <span class="origin"></span>/demo/api/me</code>.</p>
  <form id="api-key-create">
    <label>Name <input id="api-key-name" maxlength="32" required></label>
    <button type="submit">Create an API key</button>
  </form>
  <div id="api-key-created" hidden>
    <p>Your new key, shown this once: copy it now.</p>
    <pre id="api-key-value"></pre>
  </div>
  <ul id="api-keys" class="rows"></ul>
  <h2>OAuth applications</h2>
  <p>Applications that sign their users in through this demo (OpenID Connect, discovery at
  <a href="/api/auth/.well-known/openid-configuration">/api/auth/.well-known/openid-configuration</a>).</p>
  <form id="oauth-app-create">
    <label>Name <input id="oauth-app-name" required></label>
    <label>Redirect URI <input id="oauth-app-redirect" type="url" placeholder="https://app.example.com/callback" required></label>
    <button type="submit">Register an application</button>
  </form>
  <pre id="oauth-app-created" hidden></pre>
  <ul id="oauth-apps" class="rows"></ul>
  <h2>Single sign-on providers</h2>
  <p>Your company's OpenID provider: addresses of its domain then sign in through it on the
  <a href="/sign-in">Passwordless</a> page. Register this callback URL at the provider:
  <code><span class="origin"></span>/api/auth/sso/callback/<em>provider id</em></code>.
  Its origin must be in <code>BETTER_AUTH_TRUSTED_ORIGINS</code>.</p>
  <form id="sso-register">
    <label>Provider id <input id="sso-provider-id" pattern="[A-Za-z0-9_-]+" required></label>
    <label>Issuer <input id="sso-issuer" type="url" placeholder="https://idp.example.com" required></label>
    <label>Email domain <input id="sso-domain" placeholder="example.com" required></label>
    <label>Client id <input id="sso-client-id" required></label>
    <label>Client secret <input id="sso-client-secret" type="password" autocomplete="off" required></label>
    <button type="submit">Register the provider</button>
  </form>
  <ul id="sso-providers" class="rows"></ul>
</div>
`;

// Runs in the browser. WebAuthn calls go through SimpleWebAuthnBrowser (/demo/webauthn.js).
const SCRIPT = `
for (const span of document.querySelectorAll(".origin")) span.textContent = location.origin;

async function refresh() {
  const session = await showAccounts("accounts", refresh);
  $("signed-out").hidden = !!session;
  $("signed-in").hidden = !session;
  if (!session) return;
  $("current-email").textContent = session.user.email;
  const enabled = !!session.user.twoFactorEnabled;
  $("tf-status").textContent = enabled ? "on" : "off";
  $("tf-enable").hidden = enabled;
  $("tf-disable").hidden = !enabled;
  if (enabled) $("tf-setup").hidden = true;
  const passkeys = await call("/passkey/list-user-passkeys");
  $("passkeys").replaceChildren(...passkeys.map((p) => {
    const li = item((p.name || "unnamed") + " · added " + String(p.createdAt).slice(0, 10), [
      button("Delete", action(() => call("/passkey/delete-passkey", { id: p.id }), refresh)),
    ]);
    li.dataset.name = p.name || "";
    return li;
  }));
  const { apiKeys } = await call("/api-key/list");
  $("api-keys").replaceChildren(...apiKeys.map((k) => {
    const li = item(k.name + " · " + k.start + "… · created " + String(k.createdAt).slice(0, 10), [
      button("Revoke", action(() => call("/api-key/delete", { keyId: k.id }), refresh)),
    ]);
    li.dataset.name = k.name || "";
    return li;
  }));
  const apps = await call("/oauth2/get-clients");
  $("oauth-apps").replaceChildren(...apps.map((app) => {
    const li = item((app.client_name || "unnamed") + " · " + app.client_id + " · " + app.redirect_uris.join(" "), []);
    li.dataset.clientId = app.client_id;
    return li;
  }));
  await refreshSSO();
}

async function refreshSSO() {
  const { providers } = await call("/sso/providers");
  $("sso-providers").replaceChildren(...providers.map((p) => {
    const li = item(p.providerId + " · " + p.domain + " · " + p.issuer + " · client " + p.oidcConfig.clientIdLastFour, [
      button("Delete", action(() => call("/sso/delete-provider", { providerId: p.providerId }), refresh)),
    ]);
    li.dataset.providerId = p.providerId;
    return li;
  }));
}

$("sso-register").addEventListener("submit", action(async () => {
  await call("/sso/register", {
    providerId: $("sso-provider-id").value.trim(),
    issuer: $("sso-issuer").value.trim(),
    domain: $("sso-domain").value.trim(),
    oidcConfig: { clientId: $("sso-client-id").value.trim(), clientSecret: $("sso-client-secret").value },
  });
  $("sso-client-secret").value = "";
}, refresh));
$("api-key-create").addEventListener("submit", action(async () => {
  const created = await call("/api-key/create", { name: $("api-key-name").value.trim() });
  $("api-key-name").value = "";
  $("api-key-value").textContent = created.key;
  $("api-key-created").hidden = false;
}, refresh));
// A web application needs an https redirect URI; one on this machine (http on localhost,
// 127.0.0.1 or [::1]) registers as a native application (RFC 8252).
function applicationType(redirectURI) {
  const url = new URL(redirectURI);
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) ? "native" : "web";
}

$("oauth-app-create").addEventListener("submit", action(async () => {
  const redirectURI = $("oauth-app-redirect").value.trim();
  const created = await call("/oauth2/create-client", {
    client_name: $("oauth-app-name").value.trim(),
    redirect_uris: [redirectURI],
    application_type: applicationType(redirectURI),
    token_endpoint_auth_method: "client_secret_basic",
    grant_types: ["authorization_code", "refresh_token"],
  });
  $("oauth-app-created").textContent = JSON.stringify({ client_id: created.client_id, client_secret: created.client_secret }, null, 2);
  $("oauth-app-created").hidden = false;
}, refresh));

$("tf-enable").addEventListener("submit", action(async () => {
  const { totpURI, backupCodes } = await call("/two-factor/enable", { password: $("tf-enable-password").value });
  $("tf-enable-password").value = "";
  $("tf-uri").textContent = totpURI;
  $("tf-backup-codes").replaceChildren(...backupCodes.map((code) => {
    const li = document.createElement("li");
    li.textContent = code;
    return li;
  }));
  const res = await fetch("/demo/qr", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: totpURI }) });
  $("tf-qr").src = (await res.json()).dataURL;
  $("tf-setup").hidden = false;
  $("tf-verify-code").focus();
}));
$("tf-verify").addEventListener("submit", action(async () => {
  await call("/two-factor/verify-totp", { code: $("tf-verify-code").value.trim() });
  $("tf-verify-code").value = "";
}, refresh));
$("tf-disable").addEventListener("submit", action(async () => {
  await call("/two-factor/disable", { password: $("tf-disable-password").value });
  $("tf-disable-password").value = "";
}, refresh));
$("add-passkey").addEventListener("submit", action(async () => {
  const optionsJSON = await call("/passkey/generate-register-options");
  const response = await SimpleWebAuthnBrowser.startRegistration({ optionsJSON });
  await call("/passkey/verify-registration", { response, name: $("passkey-name").value.trim() || undefined });
}, refresh));

refresh().catch((error) => showError(error.message));
`;
