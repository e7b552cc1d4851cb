import { createAuthClient } from "@latchkey/client";
import {
  handlerFetch,
  startDNSServer,
  TEST_BASE_URL,
  type TestAuth,
  type TestDNSServer,
  type TestIdP,
} from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ssoClient } from "../src/client.ts";
import { CLIENT_ID, CLIENT_SECRET, PASSWORD, ssoInstance, startSSOIdP } from "./instance.ts";

let idp: TestIdP;
let dns: TestDNSServer;
let t: TestAuth;
beforeAll(async () => {
  idp = await startSSOIdP(["client-dv"]);
  dns = await startDNSServer();
  t = await ssoInstance("sqlite", idp, { domainVerification: { enabled: true, nameservers: [dns.address] } });
});
afterAll(async () => {
  await t.close();
  await idp.close();
  await dns.close();
});

describe("ssoClient domain verification methods", () => {
  it("requestDomainVerification answers the token; verifyDomain succeeds once the TXT record is there", async () => {
    const client = createAuthClient({
      baseURL: TEST_BASE_URL,
      fetch: handlerFetch(t.auth).fetch,
      plugins: [ssoClient()],
    });
    await client.signUp.email({ email: "dv-client@example.com", password: PASSWORD, name: "C" });
    await client.sso.register({
      providerId: "client-dv",
      issuer: idp.issuer,
      domain: "client-dv.example",
      oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    });
    const requested = await client.sso.requestDomainVerification({ providerId: "client-dv" });
    const token = requested.data?.domainVerificationToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await client.sso.verifyDomain({ providerId: "client-dv" })).error?.status).toBe(502);
    dns.txt.set("_better-auth-token-client-dv.client-dv.example", [token!]);
    const verified = await client.sso.verifyDomain({ providerId: "client-dv" });
    expect(verified.error).toBeNull();
    expect((await client.sso.getProvider({ providerId: "client-dv" })).data?.domainVerified).toBe(true);
  });
});
