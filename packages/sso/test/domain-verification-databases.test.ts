import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, startDNSServer, type TestDNSServer, type TestIdP } from "@latchkey/test-support";
import { registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

let idp: TestIdP;
let dns: TestDNSServer;
beforeAll(async () => {
  idp = await startSSOIdP(["race"]);
  dns = await startDNSServer();
});
afterAll(async () => {
  await idp.close();
  await dns.close();
});

// MySQL kind = the MariaDB server of this machine.
describe.each(DATABASE_KINDS)("domain verification on %s", (db) => {
  it("concurrent token requests agree on one live token; concurrent verifications all succeed or see it verified", async () => {
    const t = await ssoInstance(db, idp, {
      domainVerification: { enabled: true, nameservers: [dns.address] },
    });
    try {
      const owner = await signedIn(t, `dv-${db}`);
      const domain = `${db}.race.example`;
      expect((await owner.post("/sso/register", { ...registration(idp, "race"), domain })).status).toBe(200);
      const requests = await Promise.all(
        [1, 2, 3, 4].map(() => owner.post("/sso/request-domain-verification", { providerId: "race" })),
      );
      expect(requests.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      const tokens = new Set(
        requests.map((r) => (r.json as { domainVerificationToken: string }).domainVerificationToken),
      );
      // Nothing new was issued: the registration's token is live.
      expect(tokens.size).toBe(1);
      expect(await t.auth.$context.adapter.count({ model: "verification" })).toBe(1);
      dns.txt.set(`_better-auth-token-race.${domain}`, [[...tokens][0]!]);
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => owner.post("/sso/verify-domain", { providerId: "race" })),
      );
      for (const answer of answers) expect([204, 409]).toContain(answer.status);
      expect(answers.some((a) => a.status === 204)).toBe(true);
      const row = await t.auth.$context.adapter.findOne<Record<string, unknown>>({
        model: "ssoProvider",
        where: [{ field: "providerId", value: "race" }],
      });
      expect(row?.domainVerified).toBe(true);
    } finally {
      await t.close();
    }
  });
});
