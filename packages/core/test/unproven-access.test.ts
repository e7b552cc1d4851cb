import { describe, expect, it } from "vitest";
import { testInstance } from "./support/instance.ts";
import { mapStorage } from "./support/map-storage.ts";

/**
 * spec: States and transitions, "user email unverified": a passwordless proof of the mailbox
 * deletes every linked account (OAuth and password) and every session first, then marks the
 * email verified; `revokeUnprovenAccountAccess` returns the updated user.
 */
describe("internalAdapter.revokeUnprovenAccountAccess", () => {
  async function unverifiedUser(options: Parameters<typeof testInstance>[0] = {}) {
    const t = testInstance(options);
    const signUp = await t.post("/sign-up/email", { email: "Owner@Example.com", password: "password-1234", name: "Squatter" });
    expect(signUp.status).toBe(200);
    const ia = t.auth.$context.internalAdapter;
    const found = await ia.findUserByEmail("owner@example.com");
    const user = found!.user;
    await ia.linkAccount({ userId: user.id, providerId: "github", accountId: "gh-1" });
    await ia.createSession(user.id, false);
    return { ...t, ia, user };
  }

  it("deletes the password and OAuth accounts and every session, then marks the email verified", async () => {
    const t = await unverifiedUser();
    expect(t.count("account")).toBe(2);
    expect(t.count("session")).toBe(2);
    const updated = await t.ia.revokeUnprovenAccountAccess(t.user.id);
    expect(updated).toMatchObject({ id: t.user.id, email: "owner@example.com", emailVerified: true });
    expect(t.count("account")).toBe(0);
    expect(t.count("session")).toBe(0);
  });

  it("runs the deletions before the user update (database hooks see the order)", async () => {
    const order: string[] = [];
    const t = await unverifiedUser({
      databaseHooks: {
        account: { delete: { after: async () => void order.push("account") } },
        session: { delete: { after: async () => void order.push("session") } },
        user: { update: { after: async (user) => void order.push(`user:${String(user.emailVerified)}`) } },
      },
    });
    await t.ia.revokeUnprovenAccountAccess(t.user.id);
    expect(order).toEqual(["account", "account", "session", "session", "user:true"]);
  });

  it("leaves a verified user, its accounts and sessions alone; null for an unknown id", async () => {
    const t = await unverifiedUser();
    await t.ia.updateUser(t.user.id, { emailVerified: true });
    const same = await t.ia.revokeUnprovenAccountAccess(t.user.id);
    expect(same).toMatchObject({ id: t.user.id, emailVerified: true });
    expect(t.count("account")).toBe(2);
    expect(t.count("session")).toBe(2);
    expect(await t.ia.revokeUnprovenAccountAccess("no-such-user")).toBeNull();
  });

  it("with secondary storage: the stored sessions are dropped as well", async () => {
    const kv = mapStorage();
    const t = await unverifiedUser({ secondaryStorage: kv.storage });
    expect((await t.ia.listSessions(t.user.id)).length).toBe(2);
    await t.ia.revokeUnprovenAccountAccess(t.user.id);
    expect(await t.ia.listSessions(t.user.id)).toEqual([]);
    expect((await t.ia.findUserById(t.user.id))?.emailVerified).toBe(true);
  });

  it("parallel promotions of one user each answer the verified user", async () => {
    const t = await unverifiedUser();
    const results = await Promise.all(Array.from({ length: 5 }, () => t.ia.revokeUnprovenAccountAccess(t.user.id)));
    for (const r of results) expect(r?.emailVerified).toBe(true);
    expect(t.count("account")).toBe(0);
  });
});
