import { layout } from "./layout.js";

/** Where a reset link lands (`?token=…`, or `?error=INVALID_TOKEN`): choose a new password. */
export function renderResetPasswordPage(): string {
  return layout("Reset password", "/reset-password", BODY, SCRIPT);
}

const BODY = `
<form id="reset">
  <label>New password <input id="reset-password" type="password" autocomplete="new-password" required></label>
  <button type="submit">Set password</button>
</form>
<p id="reset-done" hidden>Password changed. <a href="/">Sign in</a> with it.</p>
`;

const SCRIPT = `
const params = new URLSearchParams(location.search);
if (params.get("error")) showError("This reset link is invalid or has expired.");
$("reset").addEventListener("submit", action(async () => {
  await call("/reset-password", { token: params.get("token") || "", newPassword: $("reset-password").value });
  $("reset").hidden = true;
  $("reset-done").hidden = false;
}));
`;
