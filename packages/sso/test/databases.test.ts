import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, DATABASE_KINDS, type TestIdP } from "@latchkey/test-support";
import { AUTH, registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

const BASE = "http://localhost:3000";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startSSOIdP(["race"]);
  idp.accounts.set("dana-sub", { email: "dana@race.example", email_verified: true, name: "Dana" });
});
afterAll(() => idp.close());

// MySQL kind = the MariaDB server of this machine.
describe.each(DATABASE_KINDS)("on %s", (db) => {
  it("concurrent registrations of one providerId: exactly one stored, the rest 422; then a sign-in and delete", async () => {
    const t = await ssoInstance(db, idp);
    try {
      const owners = await Promise.all([1, 2, 3, 4, 5].map((n) => signedIn(t, `${db}-${n}`)));
      const answers = await Promise.all(
        owners.map((o) => o.post("/sso/register", { ...registration(idp, "race"), domain: "race.example" })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422, 422, 422]);
      expect(await t.auth.$context.adapter.count({ model: "ssoProvider" })).toBe(1);

      const browser = new Browser(BASE, t.auth.handler);
      idp.login("dana-sub");
      const res = await browser.post(`${AUTH}/sign-in/sso`, {
        callbackURL: "/dashboard",
        email: "dana@race.example",
      });
      const { location } = await browser.follow(((await res.json()) as { url: string }).url);
      expect(location).toBe(`${BASE}/dashboard`);
      expect(
        await t.auth.$context.adapter.count({
          model: "account",
          where: [{ field: "providerId", value: "race" }],
        }),
      ).toBe(1);

      const winner = owners[answers.findIndex((a) => a.status === 200)]!;
      expect((await winner.post("/sso/delete-provider", { providerId: "race" })).json).toEqual({
        success: true,
      });
      expect(
        await t.auth.$context.adapter.count({
          model: "account",
          where: [{ field: "providerId", value: "race" }],
        }),
      ).toBe(0);
    } finally {
      await t.close();
    }
  });
});
