import { layout } from "./layout.js";

/**
 * The security page of the signed-in user: two-factor sign-in (enable with the password, scan
 * the QR code of the TOTP URI, keep the backup codes, confirm with a first code; disable) and
 * passkeys (register one in this browser, list, delete).
 */
export function renderSecurityPage(): string {
  return layout("Security", "/security", BODY, SCRIPT);
}

const BODY = `
<script src="/demo/webauthn.js"></script>
<p id="signed-out" hidden>Sign in on the <a href="/">Account</a> page first.</p>
<div id="signed-in" hidden>
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
</div>
`;

// Runs in the browser. WebAuthn calls go through SimpleWebAuthnBrowser (/demo/webauthn.js).
const SCRIPT = `
async function refresh() {
  const session = await call("/get-session");
  $("signed-out").hidden = !!session;
  $("signed-in").hidden = !session;
  if (!session) return;
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
}

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
