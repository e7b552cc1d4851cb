import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type TestAuth } from "@latchkey/test-support";
import { api, providerInstance, REDIRECT, signedIn } from "./instance.ts";

describe("POST /oauth2/register (RFC 7591)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({ allowUnauthenticatedClientRegistration: true });
  });
  afterAll(() => t.close());

  it("open registration: 201, a confidential client_secret_basic client, the secret once, no-store", async () => {
    const res = await client(t.auth).post("/oauth2/register", { redirect_uris: [REDIRECT], client_name: "App", unknown_member: "dropped" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = res.json as Record<string, unknown>;
    expect(body).toEqual({
      client_id: expect.stringMatching(/^[A-Za-z]{32}$/),
      client_secret: expect.stringMatching(/^[A-Za-z]{32}$/),
      client_secret_expires_at: 0,
      scope: "openid profile email offline_access",
      client_id_issued_at: expect.any(Number),
      client_name: "App",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code"],
      response_types: ["code"],
      application_type: "web",
      disabled: false,
      dpop_bound_access_tokens: false,
    });
    const row = await t.auth.$context.adapter.findOne<Record<string, unknown>>({ model: "oauthClient", where: [{ field: "clientId", value: body.client_id as string }] });
    // Stored as the reference stores it: SHA-256 base64url of the secret; no metadata for unknown members (spec rule 8).
    expect(row!.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row!.clientSecret).not.toBe(body.client_secret);
    expect(row!.metadata ?? null).toBeNull();
  });

  it("a public native client on a loopback http redirect; no secret", async () => {
    const res = await client(t.auth).post("/oauth2/register", {
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    });
    expect(res.status).toBe(201);
    expect(res.json).not.toHaveProperty("client_secret");
    expect(res.json).toMatchObject({ token_endpoint_auth_method: "none", application_type: "native" });
  });

  it("row 111: validation errors carry Cache-Control: no-store", async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ redirect_uris: ["http://app.example/cb"] }, "invalid_redirect_uri", "web clients require https redirect URIs on non-loopback hosts: http://app.example/cb"],
      [{ redirect_uris: "https://app.example/cb" }, "invalid_redirect_uri", "redirect_uris must be a array"],
      [{ redirect_uris: [REDIRECT], scope: "admin" }, "invalid_scope", "cannot request scope admin"],
      [{ redirect_uris: [REDIRECT], skip_consent: true }, "invalid_client_metadata", "skip_consent: skip_consent cannot be set during dynamic client registration"],
      [{}, "invalid_redirect_uri", "Redirect URIs are required for authorization_code and implicit grant types"],
      [{ redirect_uris: [REDIRECT], grant_types: ["client_credentials"] }, "invalid_client_metadata", "client_credentials grant requires authenticated registration"],
    ];
    for (const [body, error, description] of cases) {
      const res = await client(t.auth).post("/oauth2/register", body);
      expect([res.status, res.json], JSON.stringify(body)).toEqual([400, { error, error_description: description }]);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    expect(await t.auth.$context.adapter.count({ model: "oauthClient" })).toBe(2);
  });
});

describe("registration closed", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({ allowDynamicClientRegistration: false });
  });
  afterAll(() => t.close());

  it("403 access_denied with no-store", async () => {
    const res = await client(t.auth).post("/oauth2/register", { redirect_uris: [REDIRECT] });
    expect([res.status, res.json]).toEqual([403, { error: "access_denied", error_description: "Client registration is disabled" }]);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("registration with a session; create-client; the admin route", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance();
  });
  afterAll(() => t.close());

  it("without a session: 401 with a Bearer challenge; with one: 201 owned by the user", async () => {
    const anonymous = await client(t.auth).post("/oauth2/register", { redirect_uris: [REDIRECT] });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
    const browser = await signedIn(t);
    const res = await browser.post("/oauth2/register", { redirect_uris: [REDIRECT] });
    expect(res.status).toBe(201);
    const session = (await browser.get("/get-session")).json as { user: { id: string } };
    expect(res.json).toMatchObject({ user_id: session.user.id });
  });

  it("/oauth2/create-client needs a session; keeps the requested scope", async () => {
    expect((await client(t.auth).post("/oauth2/create-client", { redirect_uris: [REDIRECT] })).status).toBe(401);
    const browser = await signedIn(t, { email: "cc@example.com", password: "correct horse battery", name: "Cc" });
    const res = await browser.post("/oauth2/create-client", { redirect_uris: [REDIRECT], scope: "openid email" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json).toMatchObject({ scope: "openid email", client_secret: expect.any(String) });
  });

  it("adminCreateOAuthClient: client_credentials_scopes and skip_consent, user scopes refused", async () => {
    const made = (await api(t).adminCreateOAuthClient({
      body: { redirect_uris: [REDIRECT], skip_consent: true, client_credentials_scopes: [] },
    })) as Record<string, unknown>;
    expect(made).toMatchObject({ skip_consent: true, client_credentials_scopes: [] });
    await expect(
      api(t).adminCreateOAuthClient({ body: { redirect_uris: [REDIRECT], client_credentials_scopes: ["openid"] } }),
    ).rejects.toMatchObject({ status: 400, body: { error: "invalid_scope" } });
  });
});

describe("registration with an initial access token (RFC 7591 §3)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({
      validateInitialAccessToken: ({ initialAccessToken }) => (initialAccessToken === "iat-good" ? { referenceId: "org-1" } : false),
    });
  });
  afterAll(() => t.close());

  const register = (authorization: string | undefined, body: Record<string, unknown> = { redirect_uris: [REDIRECT] }) =>
    client(t.auth).post("/oauth2/register", body, authorization ? { headers: { authorization, "content-type": "application/json" } } : {});

  it("a valid token registers a client owned by its reference, client_credentials allowed", async () => {
    const res = await register("Bearer iat-good", { redirect_uris: [REDIRECT], grant_types: ["authorization_code", "client_credentials"] });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ reference_id: "org-1", grant_types: ["authorization_code", "client_credentials"] });
    expect(res.json).not.toHaveProperty("user_id");
  });

  it("a refused token is 401 invalid_token with a Bearer challenge; a malformed header 400; none 401", async () => {
    const refused = await register("Bearer nope");
    expect([refused.status, refused.json]).toEqual([401, { error: "invalid_token", error_description: "Invalid initial access token" }]);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(refused.headers.get("cache-control")).toBe("no-store");
    const malformed = await register("Bearer a b");
    expect([malformed.status, (malformed.json as { error: string }).error]).toEqual([400, "invalid_request"]);
    expect((await register(undefined)).status).toBe(401);
    expect(await t.auth.$context.adapter.count({ model: "oauthClient" })).toBe(1);
  });
});
