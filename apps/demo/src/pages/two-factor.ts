import { layout } from "./layout.js";

/**
 * The two-factor challenge: where a password sign-in of a user with two-factor lands. A code
 * from the authenticator app or a backup code finishes the sign-in; "trust this device" skips
 * the challenge on this browser for 30 days.
 */
export function renderTwoFactorPage(): string {
  return layout("Two-factor sign-in", "/two-factor", BODY, SCRIPT);
}

const BODY = `
<p>Your password was right; one more step.</p>
<label class="inline"><input id="tf-trust" type="checkbox"> Trust this device for 30 days</label>
<div class="forms">
  <form id="tf-totp">
    <h2>Authenticator app</h2>
    <label>Code <input id="tf-totp-code" inputmode="numeric" autocomplete="one-time-code" required autofocus></label>
    <button type="submit">Verify</button>
  </form>
  <form id="tf-backup">
    <h2>Backup code</h2>
    <label>Code <input id="tf-backup-code" autocomplete="off" required></label>
    <button type="submit">Use backup code</button>
  </form>
</div>
`;

// Runs in the browser. The challenge itself travels in the two_factor cookie.
const SCRIPT = `
function verifyWith(path, input) {
  return action(async () => {
    await call(path, { code: $(input).value.trim(), trustDevice: $("tf-trust").checked });
    location.assign("/");
  });
}
$("tf-totp").addEventListener("submit", verifyWith("/two-factor/verify-totp", "tf-totp-code"));
$("tf-backup").addEventListener("submit", verifyWith("/two-factor/verify-backup-code", "tf-backup-code"));
`;
