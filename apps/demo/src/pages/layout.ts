/** The demo's pages, for the navigation bar: path, label, and whether only administrators see it. */
const NAV: ReadonlyArray<readonly [path: string, label: string, adminOnly?: boolean]> = [
  ["/", "Account"],
  ["/sign-in", "Passwordless"],
  ["/security", "Security"],
  ["/organizations", "Organizations"],
  ["/outbox", "Outbox"],
  ["/admin", "Admin", true],
];

/**
 * Wraps a page's body in the shared HTML shell: styles, navigation, the error box and the
 * browser helpers every page script uses (`$`, `call`, `showError`, `action`).
 */
export function layout(title: string, path: string, body: string, script: string): string {
  const nav = NAV.map(([href, label, adminOnly]) => {
    const current = href === path ? ' aria-current="page"' : "";
    // Shown by the helpers' script once the session says the user is an administrator.
    const hidden = adminOnly && href !== path ? " hidden data-admin-only" : "";
    return `<a href="${href}"${current}${hidden}>${label}</a>`;
  }).join(" ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Latchkey demo</title>
<style>${STYLE}</style>
</head>
<body>
<header><strong>Latchkey demo</strong> <nav>${nav}</nav></header>
<h1>${title}</h1>
<p id="error" role="alert" hidden></p>
${body}
<script>${HELPERS}${script}</script>
</body>
</html>
`;
}

const STYLE = `
body { font: 16px/1.4 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
header { display: flex; gap: 1.5rem; align-items: baseline; border-bottom: 1px solid #ddd; padding-bottom: .5rem; }
nav { display: flex; gap: 1rem; }
nav a[aria-current] { font-weight: bold; text-decoration: none; color: inherit; }
.forms { display: flex; gap: 2rem; flex-wrap: wrap; }
form { display: flex; flex-direction: column; gap: .5rem; min-width: 16rem; }
label { display: flex; flex-direction: column; font-size: .9rem; }
label.inline { flex-direction: row; gap: .4rem; align-items: center; }
#error { color: #a00; background: #fee; padding: .5rem .75rem; border-radius: 4px; }
pre { background: #f4f4f4; padding: 1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
ul.rows { list-style: none; padding: 0; }
ul.rows li { display: flex; gap: 1rem; align-items: center; padding: .4rem 0; border-bottom: 1px solid #eee; }
ul.rows li .grow { flex: 1; overflow-wrap: anywhere; }
`;

// Runs in the browser. Errors show the JSON `message` the server sends, as the reference
// client does.
const HELPERS = `
const $ = (id) => document.getElementById(id);

async function call(path, body) {
  const init = body === undefined
    ? { credentials: "same-origin", headers: {} }
    : { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  // A captcha widget on the page (CAPTCHA_* set) leaves its token here, for the routes it
  // guards; each token is used once.
  const captcha = window.demoCaptcha;
  if (captcha && captcha.token && captcha.paths.includes(path)) {
    init.headers["x-captcha-response"] = captcha.token;
    captcha.used();
  }
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

/** An event handler that runs \`run\`, shows its error, then \`refresh\` (the page's redraw). */
function action(run, refresh) {
  return async (event) => {
    event.preventDefault();
    showError("");
    try { await run(event); } catch (error) { showError(error.message); }
    if (refresh) try { await refresh(); } catch (error) { showError(error.message); }
  };
}

function item(text, buttons) {
  const li = document.createElement("li");
  const span = document.createElement("span");
  span.className = "grow";
  span.textContent = text;
  li.append(span, ...buttons);
  return li;
}

// The Admin link: for administrators, and during an impersonation (to stop it).
call("/get-session").then((session) => {
  const admin = session && (String(session.user.role || "").split(",").includes("admin") || session.session.impersonatedBy);
  if (admin) for (const link of document.querySelectorAll("nav a[data-admin-only]")) link.hidden = false;
}).catch(() => undefined);

/**
 * Fills the list \`listId\` with the accounts signed in on this browser (multi-session), each
 * with Switch (unless active) and Sign out, then runs \`refresh\`. Returns the active user.
 */
async function showAccounts(listId, refresh) {
  const session = await call("/get-session");
  const current = session && session.session.token;
  const accounts = await call("/multi-session/list-device-sessions");
  $(listId).replaceChildren(...accounts.map(({ session: s, user }) => {
    const active = s.token === current;
    const li = item(user.email + (active ? " (active)" : ""), [
      ...(active ? [] : [button("Switch", action(() => call("/multi-session/set-active", { sessionToken: s.token }), refresh))]),
      button("Sign out", action(() => call("/multi-session/revoke", { sessionToken: s.token }), refresh)),
    ]);
    li.dataset.email = user.email;
    if (active) li.dataset.active = "true";
    return li;
  }));
  return session;
}

function button(label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}
`;
