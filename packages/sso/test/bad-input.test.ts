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

badInputBattery({
  name: "sso routes refuse bad input and write nothing (SQLite)",
  // A signed-in owner of provider "held": the cases reach the handlers.
  instance: async () => {
    const t = await ssoInstance("sqlite", idp);
    const browser = await signedIn(t, "battery");
    await browser.post("/sso/register", registration(idp, "held"));
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
      },
      expect: validation,
    },
    { method: "GET", path: "/sso/providers" },
    { method: "GET", path: "/sso/get-provider", validQuery: { providerId: "unknown" }, expect: validation },
    {
      method: "POST",
      path: "/sso/update-provider",
      validBody: { providerId: "unknown", domain: "x.example" },
      // The reference's message-only answer (no code) when nothing is left to change.
      expect: {
        ...validation,
        "missing field: domain": { status: 400, code: null, message: "No fields provided for update" },
      },
    },
    // An unknown provider: 404 with nothing written.
    {
      method: "POST",
      path: "/sign-in/sso",
      validBody: { callbackURL: "/dashboard", providerId: "unknown" },
      expect: {
        ...validation,
        "missing field: providerId": {
          status: 400,
          code: null,
          message: "email, organizationSlug, domain or providerId is required",
        },
      },
    },
    // An unknown state: a redirect to the error page, nothing written.
    { method: "GET", path: "/sso/callback/held", validQuery: { code: "c", state: "unknown" } },
    // The shared callback: the same, the provider unknown until the state is read.
    { method: "GET", path: "/sso/callback", validQuery: { code: "c", state: "unknown" } },
    {
      method: "POST",
      path: "/sso/delete-provider",
      validBody: { providerId: "unknown" },
      expect: validation,
    },
  ],
});
