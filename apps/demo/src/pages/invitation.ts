import { layout } from "./layout.js";

/** Where an invitation link lands (`?id=…`): who invites you where, accept or reject. */
export function renderInvitationPage(): string {
  return layout("Invitation", "/invitation", BODY, SCRIPT);
}

const BODY = `
<p id="invitation">loading…</p>
<p>
  <button id="accept" type="button" hidden>Accept</button>
  <button id="reject" type="button" hidden>Reject</button>
</p>
<p id="answered" hidden></p>
`;

// Runs in the browser. The invitation is only shown to its recipient, signed in.
const SCRIPT = `
const id = new URLSearchParams(location.search).get("id") || "";

async function load() {
  const invitation = await call("/organization/get-invitation?id=" + encodeURIComponent(id));
  $("invitation").textContent = invitation.inviterEmail + " invites you to " + invitation.organizationName + " as " + invitation.role + ".";
  $("accept").hidden = $("reject").hidden = invitation.status !== "pending";
}

function answered(text) {
  $("accept").hidden = $("reject").hidden = true;
  $("answered").hidden = false;
  $("answered").innerHTML = text + ' <a href="/organizations">Your organizations</a>';
}

$("accept").addEventListener("click", action(async () => {
  await call("/organization/accept-invitation", { invitationId: id });
  answered("Accepted.");
}));
$("reject").addEventListener("click", action(async () => {
  await call("/organization/reject-invitation", { invitationId: id });
  answered("Rejected.");
}));

load().catch((error) => {
  $("invitation").textContent = "Sign in as the invited address on the Account page, then open the link again.";
  showError(error.message);
});
`;
