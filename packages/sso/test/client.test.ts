import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { handlerFetch, TEST_BASE_URL, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ssoClient } from "../src/client.ts";
import { CLIENT_ID, CLIENT_SECRET, PASSWORD, ssoInstance, startSSOIdP } from "./instance.ts";

let idp: TestIdP;
let t: TestAuth;
beforeAll(async () => {
  idp = await startSSOIdP(["client-acme"]);
  t = await ssoInstance("sqlite", idp);
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

/** A `@latchkey/client` in front of the instance, with one browser's cookie jar. */
const browserClient = () =>
  createAuthClient({ baseURL: TEST_BASE_URL, fetch: handlerFetch(t.auth).fetch, plugins: [ssoClient()] });

describe("ssoClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(ssoClient()).toSatisfy((p: ClientPlugin) => p.id === "sso");
  });

  it("registers, lists, reads, updates, signs in and deletes through client.sso and client.signIn.sso", async () => {
    const client = browserClient();
    await client.signUp.email({ email: "client@example.com", password: PASSWORD, name: "Client" });
    const registered = await client.sso.register({
      providerId: "client-acme",
      issuer: idp.issuer,
      domain: "client.example",
      oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    });
    expect(registered.data?.redirectURI).toBe("http://localhost:3000/api/auth/sso/callback/client-acme");
    expect((await client.sso.providers()).data?.providers.map((p) => p.providerId)).toEqual(["client-acme"]);
    expect((await client.sso.getProvider({ providerId: "client-acme" })).data?.domain).toBe("client.example");
    expect(
      (await client.sso.updateProvider({ providerId: "client-acme", domain: "c.example" })).data?.domain,
    ).toBe("c.example");
    const started = await client.signIn.sso({ email: "someone@c.example", callbackURL: "/dashboard" });
    expect(started.data?.url.startsWith(`${idp.issuer}/auth?`)).toBe(true);
    expect((await client.sso.deleteProvider({ providerId: "client-acme" })).data).toEqual({ success: true });
    expect((await client.sso.getProvider({ providerId: "client-acme" })).error?.status).toBe(404);
  });
});
