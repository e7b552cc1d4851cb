import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth, TestClient } from "@latchkey/test-support";
import { APIError } from "@latchkey/core";
import { adminClient, api, formPost, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const row = (t: TestAuth, clientId: string) =>
  t.auth.$context.adapter.findOne<Record<string, unknown>>({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });

describe("clientReference: clients owned by a reference the session names", () => {
  let t: TestAuth;
  let ada: TestClient;
  let bob: TestClient;
  let eve: TestClient;
  beforeAll(async () => {
    // Ada and Bob are in one team; Eve in another (the team is the email's domain).
    t = await providerInstance({ clientReference: ({ user }) => `team:${String(user?.email).split("@")[1]}` });
    ada = await signedIn(t);
    bob = await signedIn(t, { email: "bob@example.com", password: "correct horse battery", name: "Bob" });
    eve = await signedIn(t, { email: "eve@elsewhere.org", password: "correct horse battery", name: "Eve" });
  });
  afterAll(() => t.close());

  it("create-client and register store reference_id and no user_id; the team manages them, others get 401", async () => {
    const created = (await ada.post("/oauth2/create-client", { redirect_uris: [REDIRECT] })).json as Record<string, string>;
    expect(created).toMatchObject({ reference_id: "team:example.com" });
    expect(created).not.toHaveProperty("user_id");
    expect(await row(t, created.client_id!)).toMatchObject({ referenceId: "team:example.com", userId: null });
    const registered = (await bob.post("/oauth2/register", { redirect_uris: [REDIRECT] })).json as Record<string, string>;
    expect(registered.reference_id).toBe("team:example.com");

    expect((await bob.get(`/oauth2/get-client?client_id=${created.client_id}`)).status).toBe(200);
    expect((await bob.post("/oauth2/update-client", { client_id: created.client_id, update: { client_name: "Team app" } })).status).toBe(200);
    const listed = ((await bob.get("/oauth2/get-clients")).json as Array<{ client_id: string }>).map((c) => c.client_id);
    expect(listed.sort()).toEqual([created.client_id, registered.client_id].sort());
    expect((await eve.get(`/oauth2/get-client?client_id=${created.client_id}`)).status).toBe(401);
    expect((await eve.post("/oauth2/client/rotate-secret", { client_id: created.client_id })).status).toBe(401);
    expect((await eve.post("/oauth2/delete-client", { client_id: created.client_id })).status).toBe(401);
    expect((await eve.get("/oauth2/get-clients")).json).toEqual([]);
    const rotated = await bob.post("/oauth2/client/rotate-secret", { client_id: created.client_id });
    expect(rotated.status).toBe(200);
    expect((await bob.post("/oauth2/delete-client", { client_id: created.client_id })).status).toBe(200);
    expect(await row(t, created.client_id!)).toBeNull();
  });
});

describe("adminCreateOAuthClient and the session's owner (as the reference)", () => {
  const headersOf = (c: TestClient) => new Headers({ cookie: c.jar.header() ?? "" });
  const create = (t: TestAuth, headers?: Headers) =>
    api(t).adminCreateOAuthClient({ body: { redirect_uris: [REDIRECT], skip_consent: true }, ...(headers ? { headers } : {}) }) as unknown as Promise<Record<string, string>>;

  it("with clientReference: the client belongs to the reference the session names, not the user; the team manages it", async () => {
    const t = await providerInstance({ clientReference: ({ user }) => `team:${String(user?.email).split("@")[1]}` });
    try {
      const ada = await signedIn(t);
      const bob = await signedIn(t, { email: "bob@example.com", password: "correct horse battery", name: "Bob" });
      const eve = await signedIn(t, { email: "eve@elsewhere.org", password: "correct horse battery", name: "Eve" });
      const created = await create(t, headersOf(ada));
      expect(created).toMatchObject({ reference_id: "team:example.com" });
      expect(created).not.toHaveProperty("user_id");
      expect(await row(t, created.client_id!)).toMatchObject({ referenceId: "team:example.com", userId: null });
      expect((await bob.get(`/oauth2/get-client?client_id=${created.client_id}`)).status).toBe(200);
      expect((await eve.get(`/oauth2/get-client?client_id=${created.client_id}`)).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it("without clientReference the session's user owns it; clientPrivileges is asked (401, nothing written); no session: an unowned operator client", async () => {
    const refused = new Set<string>();
    const t = await providerInstance({
      clientPrivileges: ({ action, user }) => !refused.has(`${String(user?.email)}:${action}`),
      scopes: ["openid", "profile", "email", "offline_access", "read"],
    });
    try {
      const ada = await signedIn(t);
      const created = await create(t, headersOf(ada));
      const adaId = (await t.auth.$context.adapter.findOne<{ id: string }>({ model: "user", where: [{ field: "email", value: "ada@example.com" }] }))!.id;
      expect(await row(t, created.client_id!)).toMatchObject({ userId: adaId, referenceId: null });
      expect((await ada.get("/oauth2/get-clients")).json).toEqual([expect.objectContaining({ client_id: created.client_id })]);
      const count = () => t.auth.$context.adapter.count({ model: "oauthClient" });
      const before = await count();
      refused.add("ada@example.com:create");
      const denied = await create(t, headersOf(ada)).then(() => null, (e: unknown) => e);
      expect(denied).toBeInstanceOf(APIError);
      expect((denied as APIError).status).toBe(401);
      refused.clear();
      refused.add("ada@example.com:configure-client-credentials-scopes");
      const ccDenied = await api(t)
        .adminCreateOAuthClient({ body: { redirect_uris: [REDIRECT], grant_types: ["client_credentials"], client_credentials_scopes: ["read"] }, headers: headersOf(ada) })
        .then(() => null, (e: unknown) => e);
      expect((ccDenied as APIError).status).toBe(401);
      expect(await count()).toBe(before);
      const operator = await create(t);
      expect(await row(t, operator.client_id!)).toMatchObject({ userId: null, referenceId: null });
    } finally {
      await t.close();
    }
  });
});

describe("cachedTrustedClients", () => {
  let t: TestAuth;
  let trustedId: string;
  let secret: string;
  let owner: TestClient;
  beforeAll(async () => {
    const trusted = new Set<string>();
    t = await providerInstance({ cachedTrustedClients: trusted, generateClientId: () => `trusted-${trusted.size}` });
    owner = await signedIn(t);
    const made = (await owner.post("/oauth2/create-client", { redirect_uris: [REDIRECT] })).json as { client_id: string; client_secret: string };
    trustedId = made.client_id;
    secret = made.client_secret;
    trusted.add(trustedId);
  });
  afterAll(() => t.close());

  it("the management routes refuse to change a trusted client (403 invalid_client), and nothing changes", async () => {
    const before = await row(t, trustedId);
    for (const [path, body] of [
      ["/oauth2/update-client", { client_id: trustedId, update: { client_name: "x" } }],
      ["/oauth2/client/rotate-secret", { client_id: trustedId }],
      ["/oauth2/delete-client", { client_id: trustedId }],
    ] as const) {
      const res = await owner.post(path, body);
      expect([res.status, res.json], path).toEqual([403, { error: "invalid_client", error_description: "trusted clients must be updated manually" }]);
    }
    expect(await row(t, trustedId)).toEqual(before);
  });

  it("once read, a trusted client is served from memory (a row changed behind its back is not seen)", async () => {
    const basic = { id: trustedId, secret };
    expect((await formPost(owner, "/oauth2/introspect", { token: "x" }, basic)).status).toBe(200);
    await t.auth.$context.adapter.update({ model: "oauthClient", where: [{ field: "clientId", value: trustedId }], update: { disabled: true } });
    expect((await formPost(owner, "/oauth2/introspect", { token: "x" }, basic)).status).toBe(200);
    // An untrusted client is read each time: disabling it takes effect at once.
    const other = await adminClient(t);
    await t.auth.$context.adapter.update({ model: "oauthClient", where: [{ field: "clientId", value: other.client_id }], update: { disabled: true } });
    expect((await formPost(owner, "/oauth2/introspect", { token: "x" }, { id: other.client_id, secret: other.client_secret! })).status).toBe(401);
  });
});
