/** The demo's single page: sign up, sign in, current session, sign out. Plain HTML and a little JS. */
export function renderPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Latchkey demo</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Latchkey demo</h1>
<p id="error" role="alert" hidden></p>
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
</div>
<h2>Session <button id="sign-out" type="button">Sign out</button></h2>
<pre id="session" aria-live="polite">loading…</pre>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
body { font: 16px/1.4 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
.forms { display: flex; gap: 2rem; flex-wrap: wrap; }
form { display: flex; flex-direction: column; gap: .5rem; min-width: 16rem; }
label { display: flex; flex-direction: column; font-size: .9rem; }
label.inline { flex-direction: row; gap: .4rem; align-items: center; }
#error { color: #a00; background: #fee; padding: .5rem .75rem; border-radius: 4px; }
pre { background: #f4f4f4; padding: 1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

// Runs in the browser. Errors show the JSON `message` the server sends, as the reference
// client does; the session box always shows what GET /get-session answered.
const SCRIPT = `
const $ = (id) => document.getElementById(id);

async function call(path, body) {
  const init = body === undefined
    ? { credentials: "same-origin" }
    : { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch("/api/auth" + path, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) throw new Error((data && data.message) || res.status + " " + res.statusText);
  return data;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function refreshSession() {
  const session = await call("/get-session");
  $("session").textContent = JSON.stringify(session, null, 2);
}

function action(run) {
  return async (event) => {
    event.preventDefault();
    showError("");
    try { await run(); } catch (error) { showError(error.message); }
    try { await refreshSession(); } catch (error) { showError(error.message); }
  };
}

$("sign-up").addEventListener("submit", action(() => call("/sign-up/email", {
  name: $("sign-up-name").value, email: $("sign-up-email").value, password: $("sign-up-password").value,
})));
$("sign-in").addEventListener("submit", action(() => call("/sign-in/email", {
  email: $("sign-in-email").value, password: $("sign-in-password").value, rememberMe: $("sign-in-remember").checked,
})));
$("sign-out").addEventListener("click", action(() => call("/sign-out", {})));

refreshSession().catch((error) => showError(error.message));
`;
