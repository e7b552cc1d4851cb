// The passkey page's script, bundled by the e2e server: `@latchkey/client` with
// `passkeyClient()`, as an app's page would use them. Plain DOM, no framework.
import { createAuthClient } from "@latchkey/client";
import { passkeyClient } from "../../src/client.ts";

const client = createAuthClient({ baseURL: location.origin, plugins: [passkeyClient()] });
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** Shows the current session (or null) in #session, and an error in #error. */
async function refresh(error?: { message?: string; code?: string } | null): Promise<void> {
  const session = await client.getSession();
  $("session").textContent = JSON.stringify(session.data);
  const box = $("error");
  box.hidden = !error;
  box.textContent = error ? (error.message ?? error.code ?? "error") : "";
}

$("sign-up").addEventListener("submit", async (event) => {
  event.preventDefault();
  const email = $<HTMLInputElement>("sign-up-email").value;
  const answer = await client.signUp.email({ email, password: $<HTMLInputElement>("sign-up-password").value, name: email });
  await refresh(answer.error);
});

$("add-passkey").addEventListener("click", async () => {
  const answer = await client.passkey.addPasskey({ name: $<HTMLInputElement>("passkey-name").value || undefined });
  $("passkeys").textContent = JSON.stringify((await client.passkey.listUserPasskeys()).data?.map((p) => p.name));
  await refresh(answer.error);
});

$("sign-in-passkey").addEventListener("click", async () => {
  const answer = await client.signIn.passkey();
  await refresh(answer.error);
});

$("sign-out").addEventListener("click", async () => {
  await client.signOut();
  await refresh();
});

/**
 * Conditional UI: with `?autofill`, a sign-in request with `mediation: "conditional"` is
 * started on load; the browser offers passkeys in the `username webauthn` field.
 */
if (new URLSearchParams(location.search).has("autofill")) {
  $("autofill-state").textContent = "waiting";
  void client.signIn.passkey({ autoFill: true }).then(async (answer) => {
    $("autofill-state").textContent = answer.error ? `error: ${answer.error.code ?? answer.error.message}` : "signed in";
    await refresh(answer.error);
  });
}

void refresh();
