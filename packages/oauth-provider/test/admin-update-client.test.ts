import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth, TestClient } from "@latchkey/test-support";
import { api, formPost, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const SCOPES = ["openid", "profile", "email", "offline_access", "reports:read"];

/** The admin route as the server calls it, with the browser's cookies as the session. */
async function adminUpdate(t: TestAuth, browser: TestClient | undefined, body: Record<string, unknown>) {
  try {
    const headers = new Headers(browser ? { cookie: browser.jar.header() ?? "" } : {});
    return { status: 200, body: (await api(t).adminUpdateOAuthClient({ body: body as never, headers })) as unknown as Record<string, unknown> };
  } catch (error) {
    const e = error as { statusCode?: number; status?: number; body?: unknown };
    return { status: e.status, body: e.body as Record<string, unknown> | undefined };
  }
}

const row = (t: TestAuth, clientId: string) =>
  t.auth.$context.adapter.findOne<Record<string, unknown>>({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });

describe("PATCH /admin/oauth2/update-client", () => {
  let t: TestAuth;
  let plain: TestAuth;
  let owner: TestClient;
  let other: TestClient;
  let plainOwner: TestClient;
  beforeAll(async () => {
    t = await providerInstance({ scopes: SCOPES, clientPrivileges: ({ user, action }) => action !== "configure-client-credentials-scopes" || user.email === "other@example.com" || user.email === "ada@example.com" });
    owner = await signedIn(t);
    other = await signedIn(t, { email: "other@example.com", password: "correct horse battery", name: "Other" });
    plain = await providerInstance({ scopes: SCOPES });
    plainOwner = await signedIn(plain);
  });
  afterAll(async () => {
    await t.close();
    await plain.close();
  });

  const create = async (c: TestClient, body: Record<string, unknown> = {}) =>
    (await c.post("/oauth2/create-client", { redirect_uris: [REDIRECT], client_name: "Mine", grant_types: ["authorization_code", "client_credentials"], ...body })).json as {
      client_id: string;
      client_secret: string;
    };

  it("the owner changes operator settings; the row and the answer show them, the secret never", async () => {
    const mine = await create(owner);
    const before = await row(t, mine.client_id);
    const res = await adminUpdate(t, owner, {
      client_id: mine.client_id,
      update: { skip_consent: true, enable_end_session: true, dpop_bound_access_tokens: true, client_name: "Renamed", metadata: { tier: "gold", client_id: "forged" }, token_endpoint_auth_method: "none" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ client_id: mine.client_id, client_name: "Renamed", skip_consent: true, enable_end_session: true, dpop_bound_access_tokens: true, tier: "gold", client_credentials_scopes: [] });
    expect(res.body).not.toHaveProperty("client_secret");
    const after = await row(t, mine.client_id);
    expect(after).toMatchObject({ skipConsent: true, enableEndSession: true, dpopBoundAccessTokens: true, name: "Renamed", clientSecret: before!.clientSecret });
    // token_endpoint_auth_method is not an admin update member: dropped, as the reference drops it.
    expect(after!.tokenEndpointAuthMethod ?? "client_secret_basic").toBe(before!.tokenEndpointAuthMethod ?? "client_secret_basic");
    const metadata = typeof after!.metadata === "string" ? JSON.parse(after!.metadata) : after!.metadata;
    expect(metadata).toEqual({ tier: "gold" });
  });

  it("client_credentials_scopes: stored and served by the grant when clientPrivileges allows; refused without the option", async () => {
    const mine = await create(owner);
    const res = await adminUpdate(t, owner, { client_id: mine.client_id, update: { client_credentials_scopes: [" reports:read ", "reports:read"] } });
    expect(res.status).toBe(200);
    expect(res.body!.client_credentials_scopes).toEqual(["reports:read"]);
    const token = await formPost(owner, "/oauth2/token", { grant_type: "client_credentials", scope: "reports:read" }, { id: mine.client_id, secret: mine.client_secret });
    expect(token.status).toBe(200);
    expect((token.json as { scope: string }).scope).toBe("reports:read");

    const theirs = await create(plainOwner);
    const refused = await adminUpdate(plain, plainOwner, { client_id: theirs.client_id, update: { client_credentials_scopes: ["reports:read"] } });
    expect(refused.status).toBe(401);
    expect((await row(plain, theirs.client_id))!.clientCredentialsScopes).toEqual([]);
    // Emptying the list needs no privilege.
    expect((await adminUpdate(plain, plainOwner, { client_id: theirs.client_id, update: { client_credentials_scopes: [] } })).status).toBe(200);
  });

  it("client_credentials_scopes are checked: user scopes, unknown scopes, no grant, public clients", async () => {
    const mine = await create(owner);
    const user = await adminUpdate(t, owner, { client_id: mine.client_id, update: { client_credentials_scopes: ["openid"] } });
    expect([user.status, user.body]).toEqual([400, { error: "invalid_scope", error_description: "The following client_credentials scopes are invalid: openid" }]);
    const noGrant = await create(owner, { grant_types: ["authorization_code"] });
    const grant = await adminUpdate(t, owner, { client_id: noGrant.client_id, update: { client_credentials_scopes: ["reports:read"] } });
    expect(grant.body).toEqual({ error: "invalid_client_metadata", error_description: "client_credentials_scopes requires the client_credentials grant" });
    // Dropping the grant empties the list.
    await adminUpdate(t, owner, { client_id: mine.client_id, update: { client_credentials_scopes: ["reports:read"] } });
    const dropped = await adminUpdate(t, owner, { client_id: mine.client_id, update: { grant_types: ["authorization_code"] } });
    expect(dropped.body!.client_credentials_scopes).toEqual([]);
  });

  it("another owner's client: client_credentials_scopes alone with the privilege, nothing else", async () => {
    const mine = await create(owner);
    const scopes = await adminUpdate(t, other, { client_id: mine.client_id, update: { client_credentials_scopes: ["reports:read"] } });
    expect(scopes.status).toBe(200);
    const more = await adminUpdate(t, other, { client_id: mine.client_id, update: { client_credentials_scopes: [], skip_consent: true } });
    expect(more.status).toBe(401);
    expect((await row(t, mine.client_id))!.skipConsent).toBeFalsy();
  });

  it("no session 401, unknown client 404, an empty update answers the client unchanged", async () => {
    const mine = await create(owner);
    expect((await adminUpdate(t, undefined, { client_id: mine.client_id, update: { skip_consent: true } })).status).toBe(401);
    const unknown = await adminUpdate(t, owner, { client_id: "nope", update: { skip_consent: true } });
    expect([unknown.status, unknown.body]).toEqual([404, { error: "not_found", error_description: "client not found" }]);
    const same = await adminUpdate(t, owner, { client_id: mine.client_id, update: {} });
    expect(same.body).toMatchObject({ client_id: mine.client_id, client_credentials_scopes: [] });
  });

  it("bad input is a 400 and writes nothing; over HTTP the route is not served", async () => {
    const mine = await create(owner);
    const before = await row(t, mine.client_id);
    for (const update of [
      { skip_consent: "yes" },
      { redirect_uris: [] },
      { redirect_uris: ["http://insecure.example/cb"] },
      { client_credentials_scopes: ["  "] },
      { metadata: ["x"] },
      { application_type: "tv" },
      { grant_types: ["password"] },
    ]) {
      const res = await adminUpdate(t, owner, { client_id: mine.client_id, update });
      expect(res.status, JSON.stringify(update)).toBe(400);
    }
    expect((await adminUpdate(t, owner, { client_id: 5, update: {} })).status).toBe(400);
    expect((await adminUpdate(t, owner, { client_id: mine.client_id })).status).toBe(400);
    const http = await owner.request("/admin/oauth2/update-client", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: mine.client_id, update: { skip_consent: true } }),
    });
    expect(http.status).toBe(404);
    expect(await row(t, mine.client_id)).toEqual(before);
  });
});
