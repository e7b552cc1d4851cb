import { layout } from "./layout.js";

/** The outbox page: every mail the demo would have sent, newest first, with its link. */
export function renderOutboxPage(): string {
  return layout("Outbox", "/outbox", BODY, SCRIPT);
}

const BODY = `
<p>The demo sends no mail: verification, password-reset and other links land here instead.</p>
<button id="reload" type="button">Reload</button>
<ul id="mails" class="rows"></ul>
`;

const SCRIPT = `
async function refresh() {
  const res = await fetch("/demo/outbox", { credentials: "same-origin" });
  const mails = await res.json();
  $("mails").replaceChildren(...mails.map((mail) => {
    const link = document.createElement("a");
    link.href = mail.url;
    link.textContent = "Open link";
    const li = item(mail.sentAt.slice(11, 19) + " · " + mail.to + " · " + mail.subject, [link]);
    li.dataset.to = mail.to;
    li.dataset.subject = mail.subject;
    return li;
  }));
}
$("reload").addEventListener("click", action(() => undefined, refresh));
refresh().catch((error) => showError(error.message));
`;
