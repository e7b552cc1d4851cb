import { layout } from "./layout.js";

/**
 * The admin page, for users whose role includes `admin`: find users by email, ban and unban
 * them, and impersonate one (the browser becomes that user until "Stop impersonating").
 */
export function renderAdminPage(): string {
  return layout("Admin", "/admin", BODY, SCRIPT);
}

const BODY = `
<p id="not-admin" hidden>This page is for administrators. The first account created on a fresh
database is one (or the addresses in <code>ADMIN_EMAILS</code>).</p>
<p id="impersonating" hidden>You are signed in as <strong id="impersonated-email"></strong> on an
administrator's behalf. <button id="stop-impersonating" type="button">Stop impersonating</button></p>
<div id="admin" hidden>
  <form id="user-search">
    <label>Email contains <input id="user-search-value" type="search"></label>
    <button type="submit">Search</button>
  </form>
  <label>Reason for a ban <input id="ban-reason" placeholder="No reason"></label>
  <h2>Users (<span id="users-total">0</span>)</h2>
  <ul id="users" class="rows"></ul>
</div>
`;

// Runs in the browser. The list is redrawn from GET /admin/list-users after each action.
const SCRIPT = `
async function refresh() {
  const session = await call("/get-session");
  const impersonatedBy = session && session.session.impersonatedBy;
  $("impersonating").hidden = !impersonatedBy;
  if (impersonatedBy) $("impersonated-email").textContent = session.user.email;
  const isAdmin = !!session && String(session.user.role || "").split(",").includes("admin");
  $("not-admin").hidden = isAdmin || !!impersonatedBy;
  $("admin").hidden = !isAdmin;
  if (!isAdmin) return;
  const query = new URLSearchParams({ limit: "50", sortBy: "createdAt", sortDirection: "desc" });
  const search = $("user-search-value").value.trim();
  if (search) query.set("searchValue", search), query.set("searchField", "email"), query.set("searchOperator", "contains");
  const { users, total } = await call("/admin/list-users?" + query);
  $("users-total").textContent = String(total);
  $("users").replaceChildren(...users.map((user) => {
    const self = user.id === session.user.id;
    const state = user.banned ? "banned: " + (user.banReason || "no reason") : "active";
    const li = item(user.email + " · " + user.name + " · " + (user.role || "user") + " · " + state, self ? [] : [
      user.banned
        ? button("Unban", action(() => call("/admin/unban-user", { userId: user.id }), refresh))
        : button("Ban", action(() => call("/admin/ban-user", { userId: user.id, banReason: $("ban-reason").value.trim() || undefined }), refresh)),
      button("Impersonate", action(async () => {
        await call("/admin/impersonate-user", { userId: user.id });
        location.assign("/");
      })),
    ]);
    li.dataset.email = user.email;
    li.dataset.banned = String(!!user.banned);
    return li;
  }));
}

$("user-search").addEventListener("submit", action(() => undefined, refresh));
$("stop-impersonating").addEventListener("click", action(() => call("/admin/stop-impersonating", {}), refresh));

refresh().catch((error) => showError(error.message));
`;
