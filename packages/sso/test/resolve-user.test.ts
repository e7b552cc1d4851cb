import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, rowCounts, type TestAuth, type TestIdP } from "@latchkey/test-support";
import type { ResolveSSOUser, SSOUserResolutionInput } from "../src/index.ts";
import { registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";
import { BASE, sessionUser, ssoSignIn } from "./flow-helpers.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startSSOIdP(["acme"]);
  idp.accounts.set("kim", { email: "kim@acme.example", email_verified: true, name: "Kim IdP" });
  idp.accounts.set("lee", { email: "lee@acme.example", email_verified: true, name: "Lee IdP" });
});
afterAll(() => idp.close());

/** An instance whose `resolveUser` is whatever `resolver.current` is, with provider "acme" registered. */
async function resolvingInstance(db: (typeof DATABASE_KINDS)[number], extra: Record<string, unknown> = {}) {
  const resolver: { current: ResolveSSOUser } = { current: () => ({ action: "continue" }) };
  const t = await ssoInstance(
    db,
    idp,
    { resolveUser: (input, context) => resolver.current(input, context) },
    extra,
  );
  const owner = await signedIn(t, `${db}-owner`);
  const registered = await owner.post("/sso/register", registration(idp));
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${registered.text}`);
  return { t, resolver };
}

const errorOf = (location: string | null) => {
  const url = new URL(location ?? "");
  return { error: url.searchParams.get("error"), description: url.searchParams.get("error_description") };
};

const accountOf = (t: TestAuth, sub: string) =>
  t.auth.$context.adapter.findOne<{ userId: string; providerId: string }>({
    model: "account",
    where: [
      { field: "providerId", value: "acme" },
      { field: "accountId", value: sub },
    ],
  });

/** A row the resolver writes through the transaction's adapter, to show it rolls back with the sign-in. */
const auditRow = (id: string) => ({
  model: "verification",
  data: {
    id,
    identifier: `audit-${id}`,
    value: "resolved",
    expiresAt: new Date(Date.now() + 60_000),
    createdAt: new Date(),
    updatedAt: new Date(),
  },
});

describe.each(DATABASE_KINDS)("resolveUser through the redirect flow on %s", (db) => {
  it("link binds the identity to the chosen user in the resolver's transaction; reject, throw and bad answers write nothing", async () => {
    const { t, resolver } = await resolvingInstance(db);
    try {
      const chosen = await signedIn(t, `${db}-chosen`);
      const chosenUser = (await chosen.get("/get-session")).json as { user: { id: string } };
      const chosenId = chosenUser.user.id;

      // reject: the resolver's code and message, after a write of its own that is rolled back.
      resolver.current = async (_input, { database }) => {
        await database.create(auditRow("rejected"));
        return { action: "reject", code: "tenant_closed", message: "Tenant is closed" };
      };
      const before = await rowCounts(t.auth);
      const rejected = await ssoSignIn(t, idp, "kim", { providerId: "acme" });
      expect(errorOf(rejected.location)).toEqual({ error: "tenant_closed", description: "Tenant is closed" });
      expect(await rowCounts(t.auth)).toEqual(before);

      // A throwing resolver and a malformed decision: 500-class failure code, nothing written.
      resolver.current = async (_input, { database }) => {
        await database.create(auditRow("thrown"));
        throw new Error("directory unavailable");
      };
      const thrown = await ssoSignIn(t, idp, "kim", { providerId: "acme" });
      expect(errorOf(thrown.location)).toEqual({
        error: "SSO_USER_RESOLUTION_FAILED",
        description: "Unable to resolve the SSO user",
      });
      resolver.current = () => ({ action: "link", userId: chosenId }) as never;
      const malformed = await ssoSignIn(t, idp, "kim", { providerId: "acme" });
      expect(errorOf(malformed.location).error).toBe("SSO_USER_RESOLUTION_FAILED");
      expect(await rowCounts(t.auth)).toEqual(before);

      // link: the chosen user (another email) gets the account and the session; the profile is kept.
      const seen: SSOUserResolutionInput[] = [];
      resolver.current = async (input, { database }) => {
        seen.push(input);
        const user = await database.findOne<{ id: string }>({
          model: "user",
          where: [{ field: "id", value: chosenId }],
        });
        await database.create(auditRow("linked"));
        return { action: "link", userId: user!.id, profile: "preserve" };
      };
      const linked = await ssoSignIn(t, idp, "kim", { providerId: "acme" });
      expect(linked.location).toBe(`${BASE}/dashboard`);
      expect(await sessionUser(linked.browser)).toMatchObject({
        id: chosenId,
        email: `user${db}-chosen@example.com`,
        name: `User ${db}-chosen`,
      });
      expect((await accountOf(t, "kim"))?.userId).toBe(chosenId);
      expect(
        await t.auth.$context.adapter.count({
          model: "verification",
          where: [{ field: "identifier", value: "audit-linked" }],
        }),
      ).toBe(1);
      expect(seen[0]).toMatchObject({
        protocol: "oidc",
        providerId: "acme",
        accountKey: { issuer: idp.issuer, accountId: "kim" },
        providerUser: { email: "kim@acme.example", name: "Kim IdP", emailVerified: false },
        providerClaims: { sub: "kim", email: "kim@acme.example" },
        verifiedIdTokenClaims: { sub: "kim", iss: idp.issuer },
        providerReference: { providerId: "acme", source: { type: "persisted" } },
      });
      expect(seen[0]!.providerUser).not.toHaveProperty("id");

      // The same identity selected for someone else: the account's owner wins, nothing written.
      const other = await signedIn(t, `${db}-other`);
      const otherId = ((await other.get("/get-session")).json as { user: { id: string } }).user.id;
      resolver.current = () => ({ action: "link", userId: otherId, profile: "update" });
      const afterLink = await rowCounts(t.auth);
      const conflict = await ssoSignIn(t, idp, "kim", { providerId: "acme" });
      expect(errorOf(conflict.location).error).toBe("account_ownership_conflict");
      expect(await rowCounts(t.auth)).toEqual(afterLink);

      // link with profile "update" writes the provider's profile onto the chosen user.
      resolver.current = () => ({ action: "link", userId: otherId, profile: "update" });
      const updated = await ssoSignIn(t, idp, "lee", { providerId: "acme" });
      expect(updated.location).toBe(`${BASE}/dashboard`);
      expect(await sessionUser(updated.browser)).toMatchObject({
        id: otherId,
        name: "Lee IdP",
        email: "lee@acme.example",
      });

      // continue: core's rules (a new user for a new identity).
      resolver.current = () => ({ action: "continue" });
      idp.accounts.set(`new-${db}`, { email: `new-${db}@acme.example`, email_verified: true, name: "New" });
      const created = await ssoSignIn(t, idp, `new-${db}`, { providerId: "acme" });
      expect(created.location).toBe(`${BASE}/dashboard`);
      expect(await sessionUser(created.browser)).toMatchObject({ email: `new-${db}@acme.example` });
    } finally {
      await t.close();
    }
  });
});

describe("resolveUser preconditions", () => {
  it("sessions in secondary storage: refused before the code is spent, nothing written", async () => {
    const store = new Map<string, string>();
    const { t, resolver } = await resolvingInstance("sqlite", {
      secondaryStorage: {
        get: (key: string) => store.get(key) ?? null,
        set: (key: string, value: string) => void store.set(key, value),
        delete: (key: string) => void store.delete(key),
      },
    });
    try {
      let asked = 0;
      resolver.current = () => {
        asked += 1;
        return { action: "continue" };
      };
      // Sessions and verification values live in the storage only: no tables for them.
      const before = await rowCounts(t.auth, ["session", "verification"]);
      const refused = await ssoSignIn(t, idp, "kim", { providerId: "acme" });
      expect(errorOf(refused.location)).toEqual({
        error: "SSO_USER_RESOLUTION_REQUIRES_DATABASE_SESSIONS",
        description: "SSO user resolution requires database-backed sessions with database fallback",
      });
      expect(asked).toBe(0);
      expect(await rowCounts(t.auth, ["session", "verification"])).toEqual(before);
    } finally {
      await t.close();
    }
  });
});
