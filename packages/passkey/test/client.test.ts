import { createAuthClient } from "@latchkey/client";
import { CookieJar, installBrowserWebAuthn, type TestAuth } from "@latchkey/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { passkeyClient } from "../src/client.ts";
import { ORIGIN, passkeyInstance, PASSWORD, SoftwareAuthenticator } from "./instance.ts";

let t: TestAuth;
let uninstall: (() => void) | undefined;
beforeAll(async () => {
  t = await passkeyInstance("sqlite");
});
afterEach(() => uninstall?.());
afterAll(() => t.close());

/** A `@latchkey/client` with one browser's cookie jar, sending the page's Origin. */
function browserClient() {
  const jar = new CookieJar();
  return createAuthClient({
    baseURL: ORIGIN,
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      const cookie = jar.header();
      if (cookie) headers.set("cookie", cookie);
      headers.set("origin", ORIGIN);
      const response = await t.auth.handler(new Request(url, { ...init, headers }));
      jar.absorb(response);
      return response;
    },
    plugins: [passkeyClient()],
  });
}

describe("passkeyClient with @latchkey/client (WebAuthn through @simplewebauthn/browser)", () => {
  it("adds a passkey, signs in with it, lists, renames and deletes it", async () => {
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    uninstall = installBrowserWebAuthn(key);
    const owner = browserClient();
    const signedUp = await owner.signUp.email({ email: "client@example.com", password: PASSWORD, name: "Client" });
    const added = await owner.passkey.addPasskey({ name: "Laptop" });
    expect(added.error).toBeNull();
    expect(added.data).toMatchObject({ name: "Laptop", userId: signedUp.data!.user.id, transports: "internal" });

    const again = await owner.passkey.addPasskey();
    expect(again.error).toMatchObject({ status: 400, code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", message: "Previously registered" });

    const visitor = browserClient();
    const signedIn = await visitor.signIn.passkey();
    expect(signedIn.error).toBeNull();
    expect(signedIn.data?.user.email).toBe("client@example.com");
    expect((await visitor.getSession()).data?.user.email).toBe("client@example.com");

    const listed = await visitor.passkey.listUserPasskeys();
    expect(listed.data).toHaveLength(1);
    const id = listed.data![0]!.id;
    expect((await visitor.passkey.updatePasskey({ id, name: "Work" })).data?.passkey.name).toBe("Work");
    expect(await visitor.passkey.deletePasskey({ id })).toEqual({ data: { status: true }, error: null });
    const refused = await visitor.passkey.deletePasskey({ id });
    expect(refused.error).toMatchObject({ status: 404, code: "PASSKEY_NOT_FOUND" });
  });

  it("reports the server's refusal and a failed ceremony as errors", async () => {
    const anonymous = browserClient();
    const unauthorized = await anonymous.passkey.addPasskey();
    expect(unauthorized.error).toMatchObject({ status: 401 });
    uninstall = installBrowserWebAuthn(new SoftwareAuthenticator({ origin: ORIGIN }));
    // The authenticator holds no credential: the browser refuses, the client reports it.
    const cancelled = await anonymous.signIn.passkey();
    expect(cancelled.error).toMatchObject({ status: 400, message: "Auth cancelled" });
  });
});
