// The reference's own client in a page: `better-auth/client` with `@better-auth/passkey/client`,
// unchanged, driven by the Chromium test against either server.
import { passkeyClient } from "@better-auth/passkey/client";
import { createAuthClient } from "better-auth/client";

const client = createAuthClient({ baseURL: `${location.origin}/api/auth`, plugins: [passkeyClient()] });

/** Runs one step and records its `{ data, error }` (or the exception) for the test to read. */
async function step(name: string, run: () => Promise<unknown>): Promise<void> {
  const log = ((window as unknown as { steps?: Record<string, unknown> }).steps ??= {});
  try {
    log[name] = await run();
  } catch (error) {
    log[name] = { thrown: String(error) };
  }
}

Object.assign(window, {
  signUp: (email: string) => step("signUp", () => client.signUp.email({ email, password: "password-1234", name: email })),
  addPasskey: () => step("addPasskey", () => client.passkey.addPasskey({ name: "Chromium" })),
  signOut: () => step("signOut", () => client.signOut()),
  signInPasskey: (autoFill: boolean) => step(autoFill ? "autoFill" : "signIn", () => client.signIn.passkey({ autoFill })),
  session: () => step("session", () => client.getSession()),
});
