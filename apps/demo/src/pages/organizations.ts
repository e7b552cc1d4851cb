import { layout } from "./layout.js";

/**
 * The organizations page: create one, list yours and pick the active one; its members,
 * invitations (the invitation link lands in the outbox) and teams.
 */
export function renderOrganizationsPage(): string {
  return layout("Organizations", "/organizations", BODY, SCRIPT);
}

const BODY = `
<p id="signed-out" hidden>Sign in on the <a href="/">Account</a> page first.</p>
<div id="signed-in" hidden>
  <div class="forms">
    <form id="create-org">
      <h2>New organization</h2>
      <label>Name <input id="org-name" required></label>
      <label>Slug <input id="org-slug" pattern="[a-z0-9-]+" required></label>
      <button type="submit">Create</button>
    </form>
    <form id="invite">
      <h2>Invite to the active organization</h2>
      <label>Email <input id="invite-email" type="email" required></label>
      <label>Role <select id="invite-role"><option>member</option><option>admin</option></select></label>
      <button type="submit">Send invitation</button>
    </form>
    <form id="create-team">
      <h2>New team</h2>
      <label>Name <input id="team-name" required></label>
      <button type="submit">Create team</button>
    </form>
  </div>
  <h2>Your organizations</h2>
  <ul id="orgs" class="rows"></ul>
  <h2>Active organization: <span id="active-name">none</span></h2>
  <h3>Members</h3>
  <ul id="members" class="rows"></ul>
  <h3>Invitations</h3>
  <ul id="invitations" class="rows"></ul>
  <h3>Teams</h3>
  <ul id="teams" class="rows"></ul>
</div>
`;

// Runs in the browser. Everything is redrawn from the server's answers after each action.
const SCRIPT = `
let members = [];

async function refresh() {
  const session = await call("/get-session");
  $("signed-out").hidden = !!session;
  $("signed-in").hidden = !session;
  if (!session) return;
  const active = session.session.activeOrganizationId;
  const orgs = await call("/organization/list");
  $("orgs").replaceChildren(...orgs.map((org) => {
    const isActive = org.id === active;
    const li = item(org.name + " (" + org.slug + ")" + (isActive ? " · active" : ""), isActive ? [] : [
      button("Set active", action(() => call("/organization/set-active", { organizationId: org.id }), refresh)),
    ]);
    li.dataset.slug = org.slug;
    return li;
  }));
  const full = active ? await call("/organization/get-full-organization") : null;
  $("active-name").textContent = full ? full.name : "none";
  members = full ? full.members : [];
  $("members").replaceChildren(...members.map((m) => {
    const li = item(m.user.email + " · " + m.role, []);
    li.dataset.email = m.user.email;
    return li;
  }));
  $("invitations").replaceChildren(...(full ? full.invitations : []).map((inv) => {
    const li = item(inv.email + " · " + inv.role + " · " + inv.status, inv.status !== "pending" ? [] : [
      button("Cancel", action(() => call("/organization/cancel-invitation", { invitationId: inv.id }), refresh)),
    ]);
    li.dataset.email = inv.email;
    li.dataset.status = inv.status;
    return li;
  }));
  const teams = full ? await call("/organization/list-teams") : [];
  // A team's members are only listed to its own members (as in Better Auth).
  const mine = full ? await call("/organization/list-user-teams") : [];
  const rows = await Promise.all(teams.map(async (team) => {
    const inTeam = mine.some((t) => t.id === team.id)
      ? await call("/organization/list-team-members?teamId=" + encodeURIComponent(team.id))
      : null;
    const emails = (inTeam || []).map((tm) => (members.find((m) => m.userId === tm.userId) || { user: { email: tm.userId } }).user.email);
    const select = document.createElement("select");
    select.append(...members.filter((m) => !(inTeam || []).some((tm) => tm.userId === m.userId)).map((m) => {
      const option = document.createElement("option");
      option.value = m.userId;
      option.textContent = m.user.email;
      return option;
    }));
    const isActive = session.session.activeTeamId === team.id;
    const shown = inTeam ? emails.join(", ") : "members visible to the team only";
    const li = item(team.name + (isActive ? " · active" : "") + " · " + shown, [
      select,
      button("Add to team", action(() => call("/organization/add-team-member", { teamId: team.id, userId: select.value }), refresh)),
      ...(isActive || !inTeam ? [] : [button("Set active team", action(() => call("/organization/set-active-team", { teamId: team.id }), refresh))]),
    ]);
    li.dataset.team = team.name;
    li.dataset.members = emails.join(",");
    return li;
  }));
  $("teams").replaceChildren(...rows);
}

$("create-org").addEventListener("submit", action(() => call("/organization/create", {
  name: $("org-name").value, slug: $("org-slug").value,
}), refresh));
$("invite").addEventListener("submit", action(() => call("/organization/invite-member", {
  email: $("invite-email").value, role: $("invite-role").value,
}), refresh));
$("create-team").addEventListener("submit", action(() => call("/organization/create-team", {
  name: $("team-name").value,
}), refresh));

refresh().catch((error) => showError(error.message));
`;
