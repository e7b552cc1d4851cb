import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type TestAuth, type TestClient } from "@latchkey/test-support";
import { adminClient, authorizeQuery, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

describe("client management routes", () => {
  let t: TestAuth;
  let owner: TestClient;
  let other: TestClient;
  beforeAll(async () => {
    t = await providerInstance();
    owner = await signedIn(t);
    other = await signedIn(t, { email: "other@example.com", password: "correct horse battery", name: "Other" });
  });
  afterAll(() => t.close());

  const create = async (c: TestClient, body: Record<string, unknown> = {}) =>
    (await c.post("/oauth2/create-client", { redirect_uris: [REDIRECT], client_name: "Mine", ...body })).json as { client_id: string; client_secret: string };

  it("get-client and get-clients: the owner's clients, never a secret; another user gets a bare 401, unknown 404", async () => {
    const mine = await create(owner);
    const got = await owner.get(`/oauth2/get-client?client_id=${mine.client_id}`);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ client_id: mine.client_id, client_name: "Mine", client_secret_expires_at: 0 });
    expect(got.json).not.toHaveProperty("client_secret");
    const list = (await owner.get("/oauth2/get-clients")).json as Array<Record<string, unknown>>;
    expect(list.map((c) => c.client_id)).toContain(mine.client_id);
    expect(list.every((c) => !("client_secret" in c))).toBe(true);
    const foreign = await other.get(`/oauth2/get-client?client_id=${mine.client_id}`);
    expect([foreign.status, foreign.text]).toEqual([401, ""]);
    const unknown = await owner.get("/oauth2/get-client?client_id=nope");
    expect([unknown.status, unknown.json]).toEqual([404, { error: "not_found", error_description: "client not found" }]);
  });

  it("public-client: the display fields of any enabled client", async () => {
    const mine = await create(owner, { client_uri: "https://client.example.com" });
    const res = await other.get(`/oauth2/public-client?client_id=${mine.client_id}`);
    expect(res.json).toEqual({ client_id: mine.client_id, client_name: "Mine", client_uri: "https://client.example.com", redirect_uris: [] });
  });

  it("rotate-secret: the old secret stops working, the new one works; no-store", async () => {
    const mine = await create(owner, { grant_types: ["authorization_code"] });
    const rotated = await owner.post("/oauth2/client/rotate-secret", { client_id: mine.client_id });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const secret = (rotated.json as { client_secret: string }).client_secret;
    expect(secret).not.toBe(mine.client_secret);
    const probe = (s: string) => formPost(owner, "/oauth2/introspect", { token: "x" }, { id: mine.client_id, secret: s });
    expect((await probe(mine.client_secret)).status).toBe(401);
    expect((await probe(secret)).status).toBe(200);
    expect((await other.post("/oauth2/client/rotate-secret", { client_id: mine.client_id })).status).toBe(401);
  });

  it("delete-client: only the owner may; the client is gone and so are its tokens", async () => {
    const mine = await create(owner);
    // Consent given once through the page, then a token set for the owner.
    const { verifier, challenge } = await pkcePair();
    const page = await owner.get(`/oauth2/authorize?${authorizeQuery(mine.client_id, challenge)}`, { redirect: "manual" });
    const consent = await owner.post("/oauth2/consent", { accept: true, oauth_query: new URL(page.headers.get("location")!, "http://x").search.slice(1) });
    const code = new URL((consent.json as { url: string }).url).searchParams.get("code")!;
    const tokens = await formPost(owner, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, { id: mine.client_id, secret: mine.client_secret });
    expect(tokens.status).toBe(200);
    expect((await other.post("/oauth2/delete-client", { client_id: mine.client_id })).status).toBe(401);
    expect((await owner.post("/oauth2/delete-client", { client_id: mine.client_id })).status).toBe(200);
    expect((await owner.get(`/oauth2/get-client?client_id=${mine.client_id}`)).status).toBe(404);
    const access = (tokens.json as { access_token: string }).access_token;
    expect((await owner.get("/oauth2/userinfo", { headers: { authorization: `Bearer ${access}` } })).status).toBe(401);
    for (const model of ["oauthAccessToken", "oauthRefreshToken", "oauthConsent"]) {
      expect(await t.auth.$context.adapter.count({ model, where: [{ field: "clientId", value: mine.client_id }] }), model).toBe(0);
    }
  });
});

describe("consent routes", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance();
  });
  afterAll(() => t.close());

  it("list, read, narrow and withdraw a consent; the next authorization asks again", async () => {
    const browser = await signedIn(t);
    const c = await adminClient(t, { skip_consent: false });
    const { challenge } = await pkcePair();
    const page = await browser.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { redirect: "manual" });
    const consentPage = new URL(page.headers.get("location")!, "http://x");
    await browser.post("/oauth2/consent", { accept: true, oauth_query: consentPage.search.slice(1) });
    const list = (await browser.get("/oauth2/get-consents")).json as Array<{ id: string; clientId: string; scopes: string[] }>;
    expect(list).toHaveLength(1);
    const id = list[0]!.id;
    expect((await browser.get(`/oauth2/get-consent?id=${id}`)).json).toMatchObject({ clientId: c.client_id });
    const stranger = await signedIn(t, { email: "s@example.com", password: "correct horse battery", name: "S" });
    expect((await stranger.get(`/oauth2/get-consent?id=${id}`)).status).toBe(401);
    const narrowed = await browser.post("/oauth2/update-consent", { id, update: { scopes: ["openid"] } });
    expect((narrowed.json as { scopes: string[] }).scopes).toEqual(["openid"]);
    const wider = await browser.post("/oauth2/update-consent", { id, update: { scopes: ["admin"] } });
    expect([wider.status, (wider.json as { error: string }).error]).toEqual([400, "invalid_request"]);
    expect((await browser.post("/oauth2/delete-consent", { id })).status).toBe(200);
    const again = await browser.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { redirect: "manual" });
    expect(new URL(again.headers.get("location")!, "http://x").pathname).toBe("/consent");
    expect((await browser.get("/oauth2/get-consent?id=nope")).status).toBe(404);
  });
});

describe("update-client", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance();
  });
  afterAll(() => t.close());

  it("changes the owner's client, validated as a registration; another user gets 401", async () => {
    const owner = await signedIn(t);
    const made = (await owner.post("/oauth2/create-client", { redirect_uris: [REDIRECT], client_name: "Before" })).json as { client_id: string };
    const res = await owner.post("/oauth2/update-client", { client_id: made.client_id, update: { client_name: "After", redirect_uris: ["https://client.example.com/other"], scope: "openid" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ client_name: "After", redirect_uris: ["https://client.example.com/other"], scope: "openid" });
    expect(res.json).not.toHaveProperty("client_secret");
    const insecure = await owner.post("/oauth2/update-client", { client_id: made.client_id, update: { redirect_uris: ["http://insecure.example/cb"] } });
    expect([insecure.status, (insecure.json as { error: string }).error]).toEqual([400, "invalid_redirect_uri"]);
    const wrongType = await owner.post("/oauth2/update-client", { client_id: made.client_id, update: { client_name: 5 } });
    expect([wrongType.status, (wrongType.json as { code: string }).code]).toEqual([400, "VALIDATION_ERROR"]);
    const other = await signedIn(t, { email: "u2@example.com", password: "correct horse battery", name: "U2" });
    expect((await other.post("/oauth2/update-client", { client_id: made.client_id, update: { client_name: "Mine" } })).status).toBe(401);
    expect((await owner.get(`/oauth2/get-client?client_id=${made.client_id}`)).json).toMatchObject({ client_name: "After" });
  });
});

describe("public-client-prelogin", () => {
  it("with allowPublicClientPrelogin: the display fields for a valid signed request; 401 without one; 400 when off", async () => {
    const t = await providerInstance({ allowPublicClientPrelogin: true });
    const off = await providerInstance();
    try {
      const c = await adminClient(t, { client_uri: "https://client.example.com" });
      const { challenge } = await pkcePair();
      const anonymous = client(t.auth);
      const page = await anonymous.get(`/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { redirect: "manual" });
      const oauthQuery = new URL(page.headers.get("location")!, "http://x").search.slice(1);
      const ok = await anonymous.post("/oauth2/public-client-prelogin", { client_id: c.client_id, oauth_query: oauthQuery });
      expect(ok.json).toEqual({ client_id: c.client_id, client_name: "Test client", client_uri: "https://client.example.com", redirect_uris: [] });
      const missing = await anonymous.post("/oauth2/public-client-prelogin", { client_id: c.client_id });
      expect([missing.status, missing.json]).toEqual([401, { error: "invalid_signature" }]);
      const forged = await anonymous.post("/oauth2/public-client-prelogin", { client_id: c.client_id, oauth_query: `${oauthQuery}x` });
      expect([forged.status, forged.json]).toEqual([400, { error: "invalid_signature" }]);
      const disabled = await client(off.auth).post("/oauth2/public-client-prelogin", { client_id: c.client_id });
      expect(disabled.status).toBe(400);
    } finally {
      await t.close();
      await off.close();
    }
  });
});

describe("clientPrivileges", () => {
  it("the application decides per action; a refusal is a bare 401 and writes nothing", async () => {
    const asked: string[] = [];
    const t = await providerInstance({
      clientPrivileges: ({ action, user }) => {
        asked.push(action);
        return action !== "rotate" && !(action === "create" && user.email === "nocreate@example.com");
      },
    });
    try {
      const owner = await signedIn(t);
      const made = await owner.post("/oauth2/create-client", { redirect_uris: [REDIRECT] });
      expect(made.status).toBe(201);
      const id = (made.json as { client_id: string }).client_id;
      expect((await owner.get(`/oauth2/get-client?client_id=${id}`)).status).toBe(200);
      expect((await owner.get("/oauth2/get-clients")).status).toBe(200);
      const rotate = await owner.post("/oauth2/client/rotate-secret", { client_id: id });
      expect([rotate.status, rotate.text]).toEqual([401, ""]);
      const refused = await signedIn(t, { email: "nocreate@example.com", password: "correct horse battery", name: "No" });
      expect((await refused.post("/oauth2/register", { redirect_uris: [REDIRECT] })).status).toBe(401);
      expect((await refused.post("/oauth2/create-client", { redirect_uris: [REDIRECT] })).status).toBe(401);
      expect(await t.auth.$context.adapter.count({ model: "oauthClient" })).toBe(1);
      expect(new Set(asked)).toEqual(new Set(["create", "read", "list", "rotate"]));
    } finally {
      await t.close();
    }
  });
});
