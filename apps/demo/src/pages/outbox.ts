import { layout } from "./layout.js";

/** The outbox page: every mail the demo would have sent, newest first, with its link. */
export function renderOutboxPage(): string {
  return layout("Outbox", "/outbox", BODY, SCRIPT);
}

const BODY = `
<p>The demo sends no mail: verification, password-reset, sign-in and other links, and one-time codes, land here instead.</p>
<button id="reload" type="button">Reload</button>
<ul id="mails" class="rows"></ul>
`;

const SCRIPT = `
async function refresh() {
  const res = await fetch("/demo/outbox", { credentials: "same-origin" });
  const mails = await res.json();
  $("mails").replaceChildren(...mails.map((mail) => {
    const extra = [];
    if (mail.url) {
      const link = document.createElement("a");
      link.href = mail.url;
      link.textContent = "Open link";
      extra.push(link);
    }
    if (mail.code) {
      const code = document.createElement("code");
      code.textContent = mail.code;
      extra.push(code);
    }
    const li = item(mail.sentAt.slice(11, 19) + " · " + mail.to + " · " + mail.subject, extra);
    li.dataset.to = mail.to;
    li.dataset.subject = mail.subject;
    if (mail.code) li.dataset.code = mail.code;
    return li;
  }));
}
$("reload").addEventListener("click", action(() => undefined, refresh));
refresh().catch((error) => showError(error.message));
`;
