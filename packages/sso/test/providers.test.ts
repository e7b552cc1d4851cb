import { describe, expect, it } from "vitest";
import { CLIENT_ID, registration, signedIn, useIdPInstance } from "./instance.ts";

const env = useIdPInstance();

describe("provider routes and the owner rule", () => {
  it("list, get, update and delete a provider its owner registered; others get 403 / 404", async () => {
    const owner = await signedIn(env.t, "owner");
    const other = await signedIn(env.t, "other");
    expect((await owner.post("/sso/register", registration(env.idp, "own"))).status).toBe(200);

    const list = await owner.get<{
      providers: { providerId: string; oidcConfig: Record<string, unknown> }[];
    }>("/sso/providers");
    expect(list.json?.providers.map((p) => p.providerId)).toEqual(["own"]);
    expect(list.json?.providers[0]!.oidcConfig.clientIdLastFour).toBe(`****${CLIENT_ID.slice(-4)}`);
    expect(list.text).not.toContain("clientSecret");
    expect((await other.get<{ providers: unknown[] }>("/sso/providers")).json).toEqual({ providers: [] });

    const got = await owner.get<{ providerId: string }>("/sso/get-provider?providerId=own");
    expect([got.status, got.json?.providerId]).toEqual([200, "own"]);
    const denied = await other.get<{ message: string }>("/sso/get-provider?providerId=own");
    expect([denied.status, denied.json?.message]).toEqual([403, "You don't have access to this provider"]);
    const missing = await owner.get<{ message: string }>("/sso/get-provider?providerId=nope");
    expect([missing.status, missing.json?.message]).toEqual([404, "Provider not found"]);

    const updated = await owner.post<{ domain: string; oidcConfig: { scopes: string[] } }>(
      "/sso/update-provider",
      {
        providerId: "own",
        domain: "own.example,sub.own.example",
        oidcConfig: { scopes: ["openid", "email"] },
      },
    );
    expect([updated.status, updated.json?.domain, updated.json?.oidcConfig.scopes]).toEqual([
      200,
      "own.example,sub.own.example",
      ["openid", "email"],
    ]);
    expect(
      (await other.post("/sso/update-provider", { providerId: "own", domain: "x.example" })).status,
    ).toBe(403);
    expect((await owner.post("/sso/update-provider", { providerId: "own" })).status).toBe(400);

    expect((await other.post("/sso/delete-provider", { providerId: "own" })).status).toBe(403);
    expect((await owner.post("/sso/delete-provider", { providerId: "own" })).json).toEqual({ success: true });
    expect((await owner.get("/sso/get-provider?providerId=own")).status).toBe(404);
  });

  it("refuses identity changes while linked accounts exist (409) and deletes those accounts with the provider", async () => {
    const owner = await signedIn(env.t, "linked");
    expect((await owner.post("/sso/register", registration(env.idp, "linked"))).status).toBe(200);
    const session = await owner.get<{ user: { id: string } }>("/get-session");
    const adapter = env.t.auth.$context.adapter;
    const now = new Date();
    await adapter.create({
      model: "account",
      data: {
        id: "acc-1",
        userId: session.json!.user.id,
        providerId: "linked",
        accountId: "sub-1",
        createdAt: now,
        updatedAt: now,
      },
    });
    const moved = await owner.post<{ message: string }>("/sso/update-provider", {
      providerId: "linked",
      oidcConfig: { clientId: "another-client" },
    });
    expect([moved.status, moved.json?.message]).toEqual([
      409,
      "Cannot change SSO provider identity fields while linked accounts exist",
    ]);
    // Not identity: allowed.
    expect(
      (await owner.post("/sso/update-provider", { providerId: "linked", domain: "linked.example" })).status,
    ).toBe(200);
    expect((await owner.post("/sso/delete-provider", { providerId: "linked" })).status).toBe(200);
    expect(await adapter.count({ model: "account", where: [{ field: "providerId", value: "linked" }] })).toBe(
      0,
    );
  });
});
