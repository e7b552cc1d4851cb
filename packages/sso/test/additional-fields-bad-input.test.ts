import { afterAll, beforeAll } from "vitest";
import {
  badInputBattery,
  VALIDATION_ERROR,
  type CaseExpectations,
  type TestIdP,
} from "@latchkey/test-support";
import { registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startSSOIdP();
});
afterAll(() => idp.close());

const validation: CaseExpectations = { "JSON array": VALIDATION_ERROR, "wrong type": VALIDATION_ERROR };
const fields = {
  tier: { type: "string", required: true },
  seats: { type: "number", required: false, defaultValue: 5 },
} as const;

badInputBattery({
  name: "register and update with additional fields refuse bad input and write nothing (SQLite)",
  instance: async () => {
    const t = await ssoInstance("sqlite", idp, { schema: { ssoProvider: { additionalFields: fields } } });
    const browser = await signedIn(t, "battery");
    await browser.post("/sso/register", { ...registration(idp, "held"), tier: "gold" });
    return { ...t, headers: { cookie: browser.jar.header()! } };
  },
  routes: [
    // An id already taken: valid to validation, refused with 422 and no write.
    {
      method: "POST",
      path: "/sso/register",
      validBody: {
        providerId: "held",
        issuer: "https://idp.example",
        domain: "x.example",
        oidcConfig: { clientId: "c", clientSecret: "s" },
        tier: "silver",
        seats: 3,
      },
      expect: validation,
    },
    {
      method: "POST",
      path: "/sso/update-provider",
      validBody: { providerId: "unknown", seats: 4 },
      expect: {
        ...validation,
        "missing field: seats": { status: 400, code: null, message: "No fields provided for update" },
      },
    },
  ],
});
