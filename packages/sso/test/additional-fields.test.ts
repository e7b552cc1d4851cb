import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, rowCounts, type TestIdP } from "@latchkey/test-support";
import { sso, type SSOOptions } from "../src/index.ts";
import { registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startSSOIdP();
});
afterAll(() => idp.close());

const options: SSOOptions = {
  schema: {
    ssoProvider: {
      additionalFields: {
        tier: { type: "string", required: true },
        seats: { type: "number", required: false, defaultValue: 5 },
        internalNote: { type: "string", required: false, returned: false },
        locked: { type: "boolean", required: false, input: false, defaultValue: false },
      },
    },
  },
};

describe.each(DATABASE_KINDS)("schema.ssoProvider.additionalFields on %s", (db) => {
  it("register, get, list and update read and write them; input and returned rules hold", async () => {
    const t = await ssoInstance(db, idp, options);
    try {
      const owner = await signedIn(t, `${db}-fields`);
      const before = await rowCounts(t.auth);
      const missing = await owner.post("/sso/register", registration(idp));
      expect(missing.status).toBe(400);
      expect(missing.json).toMatchObject({ code: "VALIDATION_ERROR" });
      const blocked = await owner.post("/sso/register", { ...registration(idp), tier: "gold", locked: true });
      expect([blocked.status, blocked.json]).toEqual([400, { message: "locked is not allowed to be set" }]);
      expect(await rowCounts(t.auth)).toEqual(before);

      const created = await owner.post("/sso/register", {
        ...registration(idp),
        tier: "gold",
        internalNote: "billing contact: ops",
      });
      expect(created.status).toBe(200);
      expect(created.json).toMatchObject({ providerId: "acme", tier: "gold", seats: 5, locked: false });
      expect(created.json).not.toHaveProperty("internalNote");
      const row = await t.auth.$context.adapter.findOne<Record<string, unknown>>({
        model: "ssoProvider",
        where: [{ field: "providerId", value: "acme" }],
      });
      expect(row).toMatchObject({
        tier: "gold",
        seats: 5,
        internalNote: "billing contact: ops",
        locked: false,
      });

      const got = await owner.get("/sso/get-provider?providerId=acme");
      expect(got.json).toMatchObject({ tier: "gold", seats: 5, locked: false });
      expect(got.json).not.toHaveProperty("internalNote");
      const listed = (await owner.get("/sso/providers")).json as { providers: Record<string, unknown>[] };
      expect(listed.providers[0]).toMatchObject({ providerId: "acme", tier: "gold", seats: 5 });

      const updated = await owner.post("/sso/update-provider", { providerId: "acme", seats: 9 });
      expect(updated.status).toBe(200);
      expect(updated.json).toMatchObject({ tier: "gold", seats: 9 });
      const refused = await owner.post("/sso/update-provider", { providerId: "acme", locked: true });
      expect([refused.status, refused.json]).toEqual([400, { message: "locked is not allowed to be set" }]);
      const wrongType = await owner.post("/sso/update-provider", { providerId: "acme", seats: "many" });
      expect(wrongType.status).toBe(400);
      expect(
        await t.auth.$context.adapter.findOne<Record<string, unknown>>({
          model: "ssoProvider",
          where: [{ field: "providerId", value: "acme" }],
        }),
      ).toMatchObject({ seats: 9, locked: false });
    } finally {
      await t.close();
    }
  });
});

describe("additional field collisions (the reference's checks at sso())", () => {
  it.each([
    ["domain", {}, 'ssoProvider additional field "domain" conflicts with a built-in field'],
    [
      "redirectURI",
      {},
      'ssoProvider additional field "redirectURI" conflicts with a returned provider field',
    ],
    [
      "alias",
      { fieldName: "issuer" },
      'ssoProvider additional field "alias" maps to built-in field "issuer"',
    ],
  ] as const)("%s is refused", (name, extra, message) => {
    expect(() =>
      sso({
        schema: {
          ssoProvider: { additionalFields: { [name]: { type: "string", required: false, ...extra } } },
        },
      }),
    ).toThrow(message);
  });

  it("schema.ssoProvider.modelName and fields rename the table and its columns", () => {
    const plugin = sso({
      schema: { ssoProvider: { modelName: "idp_connections", fields: { domain: "email_domain" } } },
    });
    expect(plugin.schema?.ssoProvider).toMatchObject({
      modelName: "idp_connections",
      fields: { domain: { fieldName: "email_domain" } },
    });
  });
});
