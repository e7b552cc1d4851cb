import { afterAll, beforeAll } from "vitest";
import {
  badInputBattery,
  startDNSServer,
  VALIDATION_ERROR,
  type CaseExpectations,
  type TestDNSServer,
  type TestIdP,
} from "@latchkey/test-support";
import { registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

let idp: TestIdP;
let dns: TestDNSServer;
beforeAll(async () => {
  idp = await startSSOIdP();
  dns = await startDNSServer();
});
afterAll(async () => {
  await idp.close();
  await dns.close();
});

const validation: CaseExpectations = { "JSON array": VALIDATION_ERROR, "wrong type": VALIDATION_ERROR };

badInputBattery({
  name: "domain verification routes refuse bad input and write nothing (SQLite)",
  // A signed-in owner of provider "held", already verified: valid bodies reach the handler and get 409.
  instance: async () => {
    const t = await ssoInstance("sqlite", idp, {
      domainVerification: { enabled: true, nameservers: [dns.address] },
    });
    const browser = await signedIn(t, "battery");
    await browser.post("/sso/register", registration(idp, "held"));
    await t.auth.$context.adapter.update({
      model: "ssoProvider",
      where: [{ field: "providerId", value: "held" }],
      update: { domainVerified: true },
    });
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes: [
    {
      method: "POST",
      path: "/sso/request-domain-verification",
      validBody: { providerId: "held" },
      expect: validation,
    },
    { method: "POST", path: "/sso/verify-domain", validBody: { providerId: "held" }, expect: validation },
  ],
});
