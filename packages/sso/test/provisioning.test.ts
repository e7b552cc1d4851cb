import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestAuth, type TestClient, type TestIdP } from "@latchkey/test-support";
import { organization } from "@latchkey/organization";
import { sso, type ProvisionUserInput, type SSOOptions } from "../src/index.ts";
import { registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";
import { BASE, sessionUser, ssoSignIn } from "./flow-helpers.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startSSOIdP(["org-acme"]);
  for (const name of ["mia", "max", "ned", "ira", "pat"])
    idp.accounts.set(name, { email: `${name}@acme.example`, email_verified: true, name });
});
afterAll(() => idp.close());

interface OrgInstance {
  t: TestAuth;
  owner: TestClient;
  organizationId: string;
}

/** An instance with the organization plugin; its owner's organization owns provider "org-acme". */
async function orgInstance(options: SSOOptions): Promise<OrgInstance> {
  const t = await ssoInstance("sqlite", idp, options, {
    plugins: [sso(options), organization()],
  });
  const owner = await signedIn(t, "org-owner");
  const created = await owner.post("/organization/create", {
    name: "Acme",
    slug: `acme-${Math.random().toString(36).slice(2)}`,
  });
  if (created.status !== 200) throw new Error(`organization/create: ${created.status} ${created.text}`);
  const organizationId = (created.json as { id: string }).id;
  const registered = await owner.post("/sso/register", { ...registration(idp, "org-acme"), organizationId });
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${registered.text}`);
  return { t, owner, organizationId };
}

const memberOf = (o: OrgInstance, userId: unknown) =>
  o.t.auth.$context.adapter.findMany<{ role: string }>({
    model: "member",
    where: [
      { field: "organizationId", value: o.organizationId },
      { field: "userId", value: String(userId) },
    ],
  });

describe("organization provisioning through the full redirect flow", () => {
  it("a user signing in through an organization's provider becomes a member with the default role, once", async () => {
    const o = await orgInstance({});
    try {
      const first = await ssoSignIn(o.t, idp, "mia", { providerId: "org-acme" });
      expect(first.location).toBe(`${BASE}/dashboard`);
      const user = await sessionUser(first.browser);
      expect(await memberOf(o, user?.id)).toMatchObject([{ role: "member" }]);
      await ssoSignIn(o.t, idp, "mia", { providerId: "org-acme" });
      expect(await memberOf(o, user?.id)).toHaveLength(1);
    } finally {
      await o.t.close();
    }
  });

  it("defaultRole and getRole choose the role; getRole sees the user, the mapped profile, the tokens and the provider", async () => {
    const seen: ProvisionUserInput[] = [];
    const o = await orgInstance({
      organizationProvisioning: {
        defaultRole: "admin",
        getRole: async (data) => {
          seen.push(data);
          return data.userInfo.email === "max@acme.example" ? "admin" : "member";
        },
      },
    });
    try {
      const max = await sessionUser((await ssoSignIn(o.t, idp, "max", { providerId: "org-acme" })).browser);
      const ned = await sessionUser((await ssoSignIn(o.t, idp, "ned", { providerId: "org-acme" })).browser);
      expect(await memberOf(o, max?.id)).toMatchObject([{ role: "admin" }]);
      expect(await memberOf(o, ned?.id)).toMatchObject([{ role: "member" }]);
      expect(seen[0]).toMatchObject({
        user: { id: max?.id, email: "max@acme.example" },
        userInfo: { id: "max", email: "max@acme.example" },
        provider: {
          providerId: "org-acme",
          organizationId: o.organizationId,
          oidcConfig: { clientId: expect.any(String) },
        },
      });
      expect(seen[0]?.token?.accessToken).toEqual(expect.any(String));
    } finally {
      await o.t.close();
    }
  });

  it("adds nobody when disabled or while an invitation of the email is pending", async () => {
    const off = await orgInstance({ organizationProvisioning: { disabled: true } });
    try {
      const ira = await sessionUser((await ssoSignIn(off.t, idp, "ira", { providerId: "org-acme" })).browser);
      expect(ira?.email).toBe("ira@acme.example");
      expect(await memberOf(off, ira?.id)).toEqual([]);
    } finally {
      await off.t.close();
    }
    const o = await orgInstance({});
    try {
      const invited = await o.owner.post("/organization/invite-member", {
        email: "pat@acme.example",
        role: "admin",
        organizationId: o.organizationId,
      });
      expect(invited.status).toBe(200);
      const pat = await sessionUser((await ssoSignIn(o.t, idp, "pat", { providerId: "org-acme" })).browser);
      expect(await memberOf(o, pat?.id)).toEqual([]);
    } finally {
      await o.t.close();
    }
  });
});

describe("provisionUser", () => {
  it("runs for a new user only, or on every sign-in with provisionUserOnEveryLogin", async () => {
    for (const everyLogin of [false, true]) {
      const calls: ProvisionUserInput[] = [];
      const o = await orgInstance({
        provisionUser: async (data) => {
          calls.push(data);
        },
        provisionUserOnEveryLogin: everyLogin,
      });
      try {
        await ssoSignIn(o.t, idp, "mia", { providerId: "org-acme" });
        await ssoSignIn(o.t, idp, "mia", { providerId: "org-acme" });
        expect(calls).toHaveLength(everyLogin ? 2 : 1);
        expect(calls[0]).toMatchObject({
          user: { email: "mia@acme.example" },
          userInfo: { id: "mia", email: "mia@acme.example", name: "mia" },
          provider: { providerId: "org-acme", userId: expect.any(String) },
        });
        expect(calls[0]?.token?.idToken).toEqual(expect.any(String));
      } finally {
        await o.t.close();
      }
    }
  });
});
