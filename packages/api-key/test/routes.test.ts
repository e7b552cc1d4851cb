import { createHash } from "node:crypto";
import type { TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyInstance, serverCreate, signedIn, verify, type CreatedKey } from "./instance.ts";

const sha256 = (key: string): string => createHash("sha256").update(key).digest("base64url");

describe("create, get, list, update, delete (SQLite)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await apiKeyInstance("sqlite", { enableMetadata: true, defaultPrefix: "lk_" });
  });
  afterAll(() => t.close());

  const storedRow = (id: string) => t.auth.$context.adapter.findOne<Record<string, unknown>>({ model: "apikey", where: [{ field: "id", value: id }] });

  it("create answers the key once; the row stores its SHA-256, `start` and the default prefix", async () => {
    const { browser, userId } = await signedIn(t, "create");
    const answer = await browser.post<CreatedKey>("/api-key/create", { name: "ci", metadata: { team: "ops" } });
    expect(answer.status).toBe(200);
    const created = answer.json!;
    expect(created.key).toMatch(/^lk_[a-zA-Z]{64}$/);
    expect(created).toMatchObject({ name: "ci", prefix: "lk_", start: created.key.slice(0, 6), referenceId: userId, metadata: { team: "ops" }, permissions: null, enabled: true, requestCount: 0, remaining: null, rateLimitMax: 10, rateLimitTimeWindow: 86_400_000 });
    const row = await storedRow(created.id);
    expect(row).toMatchObject({ key: sha256(created.key), metadata: JSON.stringify({ team: "ops" }), configId: "default" });
    const got = await browser.get<Record<string, unknown>>(`/api-key/get?id=${created.id}`);
    expect(got.status).toBe(200);
    expect(got.json).not.toHaveProperty("key");
    expect(got.json).toMatchObject({ id: created.id, metadata: { team: "ops" } });
  });

  it("a key without metadata stores the text \"null\" (reference) and answers null", async () => {
    const { browser } = await signedIn(t, "nometa");
    const created = (await browser.post<CreatedKey>("/api-key/create", {})).json!;
    expect((await storedRow(created.id))?.metadata).toBe("null");
    expect(created.metadata).toBeNull();
  });

  it("list pages and sorts; another user sees none of them", async () => {
    const { browser } = await signedIn(t, "list");
    for (const name of ["b", "a", "c"]) await browser.post("/api-key/create", { name });
    const all = await browser.get<{ apiKeys: { name: string }[]; total: number }>("/api-key/list?sortBy=name&sortDirection=desc");
    expect(all.json!.apiKeys.map((k) => k.name)).toEqual(["c", "b", "a"]);
    expect(all.json!.total).toBe(3);
    const page = await browser.get<{ apiKeys: { name: string }[]; total: number; limit: number; offset: number }>("/api-key/list?sortBy=name&limit=1&offset=1");
    expect(page.json).toMatchObject({ apiKeys: [{ name: "b" }], total: 3, limit: 1, offset: 1 });
    const { browser: other } = await signedIn(t, "list-other");
    expect((await other.get("/api-key/list")).json).toEqual({ apiKeys: [], total: 0 });
    const unknownSort = await browser.get("/api-key/list?sortBy=key");
    expect(unknownSort.status).toBe(400);
  });

  it("update changes what a client may change; server-only fields are refused from a client and taken from server code", async () => {
    const { browser, userId } = await signedIn(t, "update");
    const created = (await browser.post<CreatedKey>("/api-key/create", { name: "old" })).json!;
    const renamed = await browser.post("/api-key/update", { keyId: created.id, name: "new", enabled: false, metadata: { v: 2 }, expiresIn: 2 * 86_400 });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ name: "new", enabled: false, metadata: { v: 2 } });
    expect(renamed.json).not.toHaveProperty("key");
    const refused = await browser.post("/api-key/update", { keyId: created.id, rateLimitMax: 1 });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: "SERVER_ONLY_PROPERTY" });
    const api = t.auth.api as unknown as Record<string, (a: unknown) => Promise<Record<string, unknown>>>;
    const server = await api.updateApiKey!({ body: { keyId: created.id, userId, remaining: 9, refillAmount: 9, refillInterval: 60_000, permissions: { files: ["read"] } } });
    expect(server).toMatchObject({ remaining: 9, refillAmount: 9, refillInterval: 60_000, permissions: { files: ["read"] } });
    const cleared = await browser.post("/api-key/update", { keyId: created.id, expiresIn: null });
    expect(cleared.json).toMatchObject({ expiresAt: null });
  });

  it("delete removes the key; another user's delete finds nothing", async () => {
    const { browser } = await signedIn(t, "delete");
    const created = (await browser.post<CreatedKey>("/api-key/create", {})).json!;
    expect((await browser.post("/api-key/delete", { keyId: created.id })).json).toEqual({ success: true });
    expect(await storedRow(created.id)).toBeNull();
    expect((await browser.post("/api-key/delete", { keyId: created.id })).status).toBe(404);
    const { browser: other } = await signedIn(t, "delete-other");
    const kept = (await browser.post<CreatedKey>("/api-key/create", {})).json!;
    expect((await other.post("/api-key/delete", { keyId: kept.id })).status).toBe(404);
    expect(await storedRow(kept.id)).not.toBeNull();
  });
});

describe("verifyApiKey (server-only)", () => {
  let t: TestAuth;
  let userId: string;
  beforeAll(async () => {
    t = await apiKeyInstance("sqlite");
    ({ userId } = await signedIn(t, "verify"));
  });
  afterAll(() => t.close());

  it("is not routed over HTTP", async () => {
    const response = await t.auth.handler(new Request("http://localhost:3000/api/auth/api-key/verify", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    expect(response.status).toBe(404);
  });

  it("answers valid with the key and one use counted", async () => {
    const made = await serverCreate(t, { userId, remaining: 2 });
    expect(await verify(t, { key: made.key })).toMatchObject({ valid: true, error: null, key: { id: made.id, remaining: 1, requestCount: 1 } });
  });

  it("refuses unknown, disabled, expired (and deletes it), exhausted (and deletes it) and under-permissioned keys", async () => {
    expect(await verify(t, { key: "nope" })).toEqual({ valid: false, error: { code: "INVALID_API_KEY", message: "Invalid API key." }, key: null });
    const disabled = await serverCreate(t, { userId });
    await (t.auth.api as unknown as Record<string, (a: unknown) => Promise<unknown>>).updateApiKey!({ body: { keyId: disabled.id, userId, enabled: false } });
    expect(await verify(t, { key: disabled.key })).toMatchObject({ valid: false, error: { code: "KEY_DISABLED" } });
    const expired = await serverCreate(t, { userId });
    await t.auth.$context.adapter.update({ model: "apikey", where: [{ field: "id", value: expired.id }], update: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await verify(t, { key: expired.key })).toMatchObject({ valid: false, error: { code: "KEY_EXPIRED", message: "API Key has expired" } });
    expect(await t.auth.$context.adapter.findOne({ model: "apikey", where: [{ field: "id", value: expired.id }] })).toBeNull();
    const exhausted = await serverCreate(t, { userId, remaining: 0 });
    expect(await verify(t, { key: exhausted.key })).toMatchObject({ valid: false, error: { code: "USAGE_EXCEEDED" } });
    expect(await t.auth.$context.adapter.findOne({ model: "apikey", where: [{ field: "id", value: exhausted.id }] })).toBeNull();
    const scoped = await serverCreate(t, { userId, permissions: { files: ["read", "write"] } });
    expect(await verify(t, { key: scoped.key, permissions: { files: ["read"] } })).toMatchObject({ valid: true });
    expect(await verify(t, { key: scoped.key, permissions: { files: ["delete"] } })).toMatchObject({ valid: false, error: { code: "KEY_NOT_FOUND" } });
    expect(await verify(t, { key: scoped.key, permissions: { billing: ["read"] } })).toMatchObject({ valid: false, error: { code: "KEY_NOT_FOUND" } });
    const plain = await serverCreate(t, { userId });
    expect(await verify(t, { key: plain.key, permissions: { files: ["read"] } })).toMatchObject({ valid: false, error: { code: "KEY_NOT_FOUND" } });
  });

  it("deleteAllExpiredApiKeys removes expired keys only", async () => {
    const old = await serverCreate(t, { userId });
    const live = await serverCreate(t, { userId, expiresIn: 2 * 86_400 });
    await t.auth.$context.adapter.update({ model: "apikey", where: [{ field: "id", value: old.id }], update: { expiresAt: new Date(Date.now() - 1000) } });
    const api = t.auth.api as unknown as Record<string, (a: unknown) => Promise<unknown>>;
    expect(await api.deleteAllExpiredApiKeys!({})).toEqual({ success: true, error: null });
    expect(await t.auth.$context.adapter.findOne({ model: "apikey", where: [{ field: "id", value: old.id }] })).toBeNull();
    expect(await t.auth.$context.adapter.findOne({ model: "apikey", where: [{ field: "id", value: live.id }] })).not.toBeNull();
  });
});

describe("sessions from keys (enableSessionForAPIKeys)", () => {
  let t: TestAuth;
  let userId: string;
  beforeAll(async () => {
    t = await apiKeyInstance("sqlite", { enableSessionForAPIKeys: true, apiKeyHeaders: ["x-api-key", "x-other-key"] });
    ({ userId } = await signedIn(t, "session"));
  });
  afterAll(() => t.close());

  const send = (path: string, headers: Record<string, string>, body?: unknown) =>
    t.auth.handler(
      new Request(`http://localhost:3000/api/auth${path}`, body === undefined ? { headers } : { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) }),
    );

  it("get-session answers the key's user and a session that lasts as long as the key", async () => {
    const made = await serverCreate(t, { userId, expiresIn: 3 * 86_400 });
    for (const header of ["x-api-key", "x-other-key"]) {
      const response = await send("/get-session", { [header]: made.key });
      const body = (await response.json()) as { user: { id: string }; session: { id: string; token: string; expiresAt: string } };
      expect(body.user.id).toBe(userId);
      expect(body.session).toMatchObject({ id: made.id, token: made.key });
      expect(body.session.expiresAt).toBe(new Date(made.expiresAt!).toISOString());
    }
  });

  it("a key without expiry gives a session of session.expiresIn (7 days), not 10 minutes (row 99)", async () => {
    const made = await serverCreate(t, { userId });
    const body = (await (await send("/get-session", { "x-api-key": made.key })).json()) as { session: { expiresAt: string } };
    const left = new Date(body.session.expiresAt).getTime() - Date.now();
    expect(left).toBeGreaterThan(7 * 86_400_000 - 60_000);
  });

  it("authenticates other routes: the key's owner creates a key with it", async () => {
    const made = await serverCreate(t, { userId });
    const response = await send("/api-key/create", { "x-api-key": made.key }, { name: "by-key" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ referenceId: userId, name: "by-key" });
  });

  it("refuses short (403), unknown (401) and rate-limited (429) keys before the route runs", async () => {
    expect((await send("/get-session", { "x-api-key": "short" })).status).toBe(403);
    const unknown = await send("/get-session", { "x-api-key": "q".repeat(64) });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ code: "INVALID_API_KEY", message: "Invalid API key." });
    const limited = await serverCreate(t, { userId, rateLimitMax: 1, rateLimitTimeWindow: 60_000 });
    expect((await send("/get-session", { "x-api-key": limited.key })).status).toBe(200);
    const refused = await send("/get-session", { "x-api-key": limited.key });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: "RATE_LIMITED", message: "Rate limit exceeded.", details: { tryAgainIn: expect.any(Number) } });
  });

  it("a custom getter reads the key from elsewhere; a non-string answer is 400", async () => {
    const custom = await apiKeyInstance("sqlite", {
      enableSessionForAPIKeys: true,
      customAPIKeyGetter: (ctx) => (ctx.headers.get("authorization") ?? "").replace(/^ApiKey /, "") || null,
    });
    try {
      const { userId: owner } = await signedIn(custom, "getter");
      const made = await serverCreate(custom, { userId: owner });
      const response = await custom.auth.handler(new Request("http://localhost:3000/api/auth/get-session", { headers: { authorization: `ApiKey ${made.key}` } }));
      expect(((await response.json()) as { user: { id: string } }).user.id).toBe(owner);
    } finally {
      await custom.close();
    }
    const wrong = await apiKeyInstance("sqlite", { enableSessionForAPIKeys: true, customAPIKeyGetter: () => 42 as unknown as string });
    try {
      const response = await wrong.auth.handler(new Request("http://localhost:3000/api/auth/get-session"));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: "INVALID_API_KEY_GETTER_RETURN_TYPE" });
    } finally {
      await wrong.close();
    }
  });
});

describe("configurations and organizations", () => {
  it("several configurations need unique configIds; keys stay in their configuration", async () => {
    const { apiKey } = await import("../src/index.ts");
    expect(() => apiKey([{ configId: "a" }, {}])).toThrow(TypeError);
    expect(() => apiKey([{ configId: "a" }, { configId: "a" }])).toThrow(TypeError);
    const t = await apiKeyInstance("sqlite", [{ configId: "default" }, { configId: "ci", defaultPrefix: "ci_" }]);
    try {
      const { browser } = await signedIn(t, "configs");
      const ci = (await browser.post<CreatedKey>("/api-key/create", { configId: "ci" })).json!;
      expect(ci.key.startsWith("ci_")).toBe(true);
      expect(ci.configId).toBe("ci");
      expect((await browser.get(`/api-key/get?id=${ci.id}`)).status).toBe(404);
      expect((await browser.get(`/api-key/get?id=${ci.id}&configId=ci`)).status).toBe(200);
      expect((await browser.get<{ total: number }>("/api-key/list?configId=ci")).json!.total).toBe(1);
      expect(await verify(t, { key: ci.key, configId: "default" })).toMatchObject({ valid: false, error: { code: "INVALID_API_KEY" } });
      expect(await verify(t, { key: ci.key, configId: "ci" })).toMatchObject({ valid: true });
    } finally {
      await t.close();
    }
  });

  it("organization keys without the organization plugin: 500 ORGANIZATION_PLUGIN_REQUIRED; without organizationId: 400", async () => {
    const t = await apiKeyInstance("sqlite", { references: "organization" });
    try {
      const { browser } = await signedIn(t, "org");
      const missing = await browser.post("/api-key/create", {});
      expect(missing.status).toBe(400);
      expect(missing.json).toMatchObject({ code: "ORGANIZATION_ID_REQUIRED" });
      const noPlugin = await browser.post("/api-key/create", { organizationId: "org-1" });
      expect(noPlugin.status).toBe(500);
      expect(noPlugin.json).toMatchObject({ code: "ORGANIZATION_PLUGIN_REQUIRED" });
    } finally {
      await t.close();
    }
  });

  it("disableKeyHashing stores the plain key, and it verifies", async () => {
    const t = await apiKeyInstance("sqlite", { disableKeyHashing: true });
    try {
      const { userId } = await signedIn(t, "plain");
      const made = await serverCreate(t, { userId });
      const row = await t.auth.$context.adapter.findOne<{ key: string }>({ model: "apikey", where: [{ field: "id", value: made.id }] });
      expect(row?.key).toBe(made.key);
      expect(await verify(t, { key: made.key })).toMatchObject({ valid: true });
    } finally {
      await t.close();
    }
  });
});
