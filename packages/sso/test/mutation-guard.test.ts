import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestIdP } from "@latchkey/test-support";
import type { SSOProviderMutationGuardInput } from "../src/index.ts";
import { registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startSSOIdP();
});
afterAll(() => idp.close());

describe.each(["sqlite", "postgres"] as const)("guardProviderMutation on %s", (db) => {
  it("is asked before update and delete with the reference's shapes, inside the transaction; a throw refuses with 409 and changes nothing", async () => {
    const asked: SSOProviderMutationGuardInput[] = [];
    let refuse = true;
    let rowSeenInTransaction: unknown;
    const t = await ssoInstance(db, idp, {
      guardProviderMutation: async (input, { database }) => {
        asked.push(input);
        rowSeenInTransaction = await database.findOne({
          model: "ssoProvider",
          where: [{ field: "providerId", value: input.provider.providerId }],
        });
        if (refuse) throw new Error("frozen by policy: secret detail");
      },
    });
    try {
      const owner = await signedIn(t, `guard-${db}`);
      const registered = await owner.post("/sso/register", registration(idp, "guarded"));
      expect(registered.status).toBe(200);
      const update = await owner.post("/sso/update-provider", {
        providerId: "guarded",
        domain: "new.example",
      });
      expect(update.status).toBe(409);
      expect(update.json).toEqual({
        code: "SSO_PROVIDER_MUTATION_REJECTED",
        message: "SSO provider mutation is not allowed",
      });
      const identity = await owner.post("/sso/update-provider", {
        providerId: "guarded",
        oidcConfig: { clientId: "other" },
      });
      expect(identity.status).toBe(409);
      const removal = await owner.post("/sso/delete-provider", { providerId: "guarded" });
      expect(removal.status).toBe(409);
      const row = await t.auth.$context.adapter.findOne<{ id: string; domain: string }>({
        model: "ssoProvider",
        where: [{ field: "providerId", value: "guarded" }],
      });
      expect(row?.domain).toBe("acme.example");
      expect(rowSeenInTransaction).toMatchObject({ id: row?.id });
      expect(asked.map((a) => a.action)).toEqual(["update", "update", "delete"]);
      expect(asked[0]).toMatchObject({
        action: "update",
        isAuthenticationBoundaryChange: false,
        provider: { id: row?.id, providerId: "guarded", organizationId: null },
        providerReference: {
          providerId: "guarded",
          source: { type: "persisted", recordId: row?.id },
          authenticationConfigurationFingerprint: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        },
      });
      expect(asked[1]).toMatchObject({ isAuthenticationBoundaryChange: true });
      expect(JSON.stringify(asked)).not.toContain("client-secret");

      refuse = false;
      expect(
        (await owner.post("/sso/update-provider", { providerId: "guarded", domain: "new.example" })).json,
      ).toMatchObject({
        domain: "new.example",
      });
      expect((await owner.post("/sso/delete-provider", { providerId: "guarded" })).json).toEqual({
        success: true,
      });
      expect(await t.auth.$context.adapter.count({ model: "ssoProvider" })).toBe(0);
    } finally {
      await t.close();
    }
  });
});
