import { apiKeyClient } from "@better-auth/api-key/client";
import { createAuthClient } from "better-auth/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, createApiKeyPair, withApiKeyPair, PASSWORD, serverKey, verify, yieldingStore, type Answer, type ApiKeyPair, type LooseApi } from "./support/api-key-pair.ts";
import { jarFetch } from "./support/client-fetch.ts";
import { BASE_PATH, type Handler } from "./support/instances.ts";
import { listen } from "./support/server.ts";

/**
 * `@latchkey/api-key` beside the reference's `apiKey()` (`@better-auth/api-key` 1.7.5) on one
 * SQLite file: the same table, keys made by one side verifying and authenticating on the
 * other, the same answers from every route for one scripted flow, the reference's
 * `apiKeyClient()` against Latchkey over HTTP. The divergences (rows 99-107) are in
 * api-key-divergences.test.ts.
 */

/** Values that differ by construction become marks; null stays null so its presence is compared. */
const VARYING = new Set(["id", "key", "start", "referenceId", "userId", "createdAt", "updatedAt", "expiresAt", "lastRequest", "lastRefillAt", "token"]);
function normalize(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => (VARYING.has(key) && v !== null && v !== undefined ? "<x>" : v)),
  );
}

/** Validation messages are each validator's own wording (zod vs valibot): keep the status and code. */
function validationOnly(answer: Answer): Answer {
  const body = answer.json as { code?: string } | null;
  return body?.code === "VALIDATION_ERROR" ? { status: answer.status, json: { code: body.code } } : answer;
}

/** One scripted flow through every HTTP route; returns every normalized answer. */
async function flow(handler: Handler, side: string): Promise<unknown[]> {
  const owner = new Browser(handler);
  const other = new Browser(handler);
  const steps: Answer[] = [];
  const step = async (browser: Browser, path: string, body?: unknown) => {
    const answer = validationOnly(await browser.send(path, body));
    steps.push(answer);
    return answer;
  };
  await step(owner, "/api-key/create", {});
  await owner.signUp(`owner-${side}@example.com`);
  await other.signUp(`other-${side}@example.com`);
  const first = (await step(owner, "/api-key/create", { name: "first" })).json as { id: string; key: string };
  expect(first.key).toMatch(/^[a-zA-Z]{64}$/);
  await step(owner, "/api-key/create", { name: "x".repeat(33) });
  await step(owner, "/api-key/create", { name: "" });
  await step(owner, "/api-key/create", { prefix: "bad prefix!" });
  await step(owner, "/api-key/create", { prefix: "p".repeat(33) });
  await step(owner, "/api-key/create", { remaining: 5 });
  await step(owner, "/api-key/create", { permissions: { files: ["read"] } });
  await step(owner, "/api-key/create", { userId: "someone-else" });
  await step(owner, "/api-key/create", { metadata: { plan: "pro" } });
  await step(owner, "/api-key/create", { expiresIn: 60 });
  await step(owner, "/api-key/create", { expiresIn: 366 * 86_400 });
  await step(owner, "/api-key/create", { expiresIn: 0 });
  await step(owner, "/api-key/create", { expiresIn: "soon" });
  const second = (await step(owner, "/api-key/create", { name: "second", prefix: "pk_", expiresIn: 2 * 86_400 })).json as {
    id: string;
    key: string;
    start: string;
  };
  expect(second.key).toMatch(/^pk_[a-zA-Z]{64}$/);
  expect(second.start).toBe(second.key.slice(0, 6));
  await step(owner, `/api-key/get?id=${first.id}`);
  await step(owner, "/api-key/get?id=no-such-key");
  await step(owner, "/api-key/get");
  await step(other, `/api-key/get?id=${first.id}`);
  await step(owner, "/api-key/list");
  await step(owner, "/api-key/list?limit=1&offset=1&sortBy=name&sortDirection=desc");
  await step(owner, "/api-key/list?sortBy=name&sortDirection=asc");
  await step(owner, "/api-key/list?limit=-1");
  await step(other, "/api-key/list");
  await step(owner, "/api-key/update", { keyId: first.id, name: "renamed", enabled: false });
  await step(owner, "/api-key/update", { keyId: first.id });
  await step(owner, "/api-key/update", { keyId: first.id, remaining: 3 });
  await step(owner, "/api-key/update", { keyId: first.id, expiresIn: 60 });
  await step(owner, "/api-key/update", { keyId: first.id, expiresIn: null });
  await step(owner, "/api-key/update", { keyId: "no-such-key", name: "x" });
  await step(other, "/api-key/update", { keyId: first.id, name: "stolen" });
  await step(other, "/api-key/delete", { keyId: first.id });
  await step(owner, "/api-key/delete", { keyId: "no-such-key" });
  await step(owner, "/api-key/delete", {});
  await step(owner, "/api-key/delete", { keyId: first.id });
  await step(owner, `/api-key/get?id=${first.id}`);
  await step(owner, "/api-key/list");
  await step(new Browser(handler), "/api-key/list");
  await step(new Browser(handler), "/api-key/delete", { keyId: second.id });
  // Server-only endpoints are not routed.
  await step(owner, "/api-key/verify", { key: second.key });
  await step(owner, "/api-key/delete-all-expired-api-keys", {});
  return steps.map(normalize);
}

describe("api-key: the table", () => {
  it("Latchkey's createTables finds the reference's apikey table complete, and makes the same one on a fresh database", async () => {
    const pair = await createApiKeyPair();
    try {
      const columns = (db: ApiKeyPair["db"]) =>
        (db.prepare("select name, type, \"notnull\" as nn from pragma_table_info('apikey') order by name").all([]) as unknown[]);
      // Index names and their columns (the reference names them `<table>_<column>_idx` too).
      const indexes = (db: ApiKeyPair["db"]) =>
        (db.prepare("select il.name as name, ii.name as col from pragma_index_list('apikey') il, pragma_index_info(il.name) ii where il.origin = 'c' order by 1, 2").all([]) as unknown[]);
      const reference = columns(pair.db);
      expect(reference.length).toBe(22);
      const { openSqlite, tempDatabaseFile } = await import("./support/sqlite.ts");
      const { createAuth } = await import("@latchkey/core");
      const { kyselyAdapter } = await import("@latchkey/adapter-kysely");
      const { apiKey } = await import("@latchkey/api-key");
      const fresh = tempDatabaseFile();
      const connection = openSqlite(fresh.file);
      try {
        const auth = createAuth({ database: kyselyAdapter(connection), secret: "s".repeat(40), baseURL: "http://localhost:3000", plugins: [apiKey()], logger: { disabled: true } });
        await auth.createTables();
        expect(columns(connection)).toEqual(reference);
        expect(indexes(pair.db)).toHaveLength(3);
        expect(indexes(connection)).toEqual(indexes(pair.db));
      } finally {
        connection.close();
        fresh.remove();
      }
    } finally {
      pair.close();
    }
  });
});

describe("api-key: the same answers on both", () => {
  let pair: ApiKeyPair;
  beforeAll(async () => {
    pair = await createApiKeyPair();
  });
  afterAll(() => pair.close());

  it("create, get, list (paging, sorting), update, delete and their errors: same statuses and bodies", async () => {
    const reference = await flow(pair.reference, "r");
    const latchkey = await flow(pair.latchkey, "l");
    for (let i = 0; i < reference.length; i++) expect({ step: i, answer: latchkey[i] }).toEqual({ step: i, answer: reference[i] });
  });
});

describe("api-key: keys cross over", () => {
  let pair: ApiKeyPair;
  let userId: string;
  beforeAll(async () => {
    pair = await createApiKeyPair({ plugin: { enableSessionForAPIKeys: true, enableMetadata: true } });
    userId = await new Browser(pair.reference).signUp("cross@example.com");
  });
  afterAll(() => pair.close());

  const sides = [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const;
  const apiOf = (side: "reference" | "latchkey"): LooseApi => (side === "reference" ? pair.referenceApi : pair.latchkeyApi);

  for (const [from, to] of sides) {
    it(`a key made by ${from} verifies on ${to}, with its permissions, metadata and counts`, async () => {
      const made = await serverKey(apiOf(from), {
        userId,
        remaining: 3,
        permissions: { files: ["read", "write"] },
        metadata: { plan: "pro" },
        prefix: "ck_",
      });
      const first = await verify(apiOf(to), { key: made.key, permissions: { files: ["read"] } });
      expect(first).toMatchObject({ valid: true, error: null, key: { id: made.id, remaining: 2, requestCount: 1, metadata: { plan: "pro" }, permissions: { files: ["read", "write"] } } });
      expect(first.key).not.toHaveProperty("key");
      const back = await verify(apiOf(from), { key: made.key });
      expect(back).toMatchObject({ valid: true, key: { remaining: 1, requestCount: 2 } });
      expect(await verify(apiOf(to), { key: made.key, permissions: { files: ["delete"] } })).toMatchObject({ valid: false, error: { code: "KEY_NOT_FOUND" } });
      expect(await verify(apiOf(to), { key: `${made.key}x` })).toMatchObject({ valid: false, error: { code: "INVALID_API_KEY" } });
    });

    it(`a key made by ${from} is a session on ${to} (x-api-key on get-session and on a session route)`, async () => {
      const made = await serverKey(apiOf(from), { userId });
      const handler = to === "reference" ? pair.reference : pair.latchkey;
      const session = await new Browser(handler).send("/get-session", undefined, { "x-api-key": made.key });
      expect(session.status).toBe(200);
      expect(session.json).toMatchObject({ user: { id: userId, email: "cross@example.com" }, session: { id: made.id, token: made.key, userId } });
      const listed = await new Browser(handler).send("/api-key/list", undefined, { "x-api-key": made.key });
      expect(listed.status).toBe(200);
      expect((listed.json as { total: number }).total).toBeGreaterThan(0);
    });
  }

  it("the stored key is SHA-256 base64url of the plain key on both", async () => {
    const { createHash } = await import("node:crypto");
    for (const api of [pair.referenceApi, pair.latchkeyApi]) {
      const made = await serverKey(api, { userId });
      const row = pair.db.prepare("select key from apikey where id = ?").all([made.id]) as { key: string }[];
      expect(row[0]!.key).toBe(createHash("sha256").update(made.key).digest("base64url"));
    }
  });

  it("header errors answer alike: a short key, an unknown key, a disabled key", async () => {
    const disabled = await serverKey(pair.referenceApi, { userId });
    await pair.referenceApi.updateApiKey!({ body: { keyId: disabled.id, userId, enabled: false } });
    const cases = ["short", "z".repeat(64), disabled.key];
    const run = async (handler: Handler) => {
      const out: Answer[] = [];
      for (const key of cases) out.push(await new Browser(handler).send("/get-session", undefined, { "x-api-key": key }));
      return out;
    };
    expect(await run(pair.latchkey)).toEqual(await run(pair.reference));
  });
});

describe("api-key: verifyApiKey answers alike", () => {
  it("valid, unknown, disabled, expired, exhausted, without the permission, rate-limited: the same { valid, error, key }", async () => {
    await withApiKeyPair({}, "verdicts@example.com", async (pair, userId) => {
      const run = async (api: LooseApi) => {
        const plain = await serverKey(api, { userId, permissions: { files: ["read"] } });
        const disabled = await serverKey(api, { userId });
        await api.updateApiKey!({ body: { keyId: disabled.id, userId, enabled: false } });
        const expired = await serverKey(api, { userId });
        pair.db.prepare("update apikey set expiresAt = ? where id = ?").run([new Date(Date.now() - 1000).toISOString(), expired.id]);
        const exhausted = await serverKey(api, { userId, remaining: 0 });
        const limited = await serverKey(api, { userId, rateLimitMax: 1, rateLimitTimeWindow: 60_000 });
        await verify(api, { key: limited.key });
        const verdicts = [
          await verify(api, { key: plain.key, permissions: { files: ["read"] } }),
          await verify(api, { key: "not-a-key" }),
          await verify(api, { key: disabled.key }),
          await verify(api, { key: expired.key }),
          await verify(api, { key: exhausted.key }),
          await verify(api, { key: plain.key, permissions: { files: ["write"] } }),
          await verify(api, { key: limited.key }),
        ];
        return normalize(verdicts.map((v) => {
          const wait = (v.error as { details?: { tryAgainIn?: number } } | null)?.details?.tryAgainIn;
          // The time left differs by the milliseconds between the two runs: keep its size.
          return wait === undefined ? v : { ...v, error: { ...v.error, details: { tryAgainIn: wait > 59_000 } } };
        }));
      };
      expect(await run(pair.latchkeyApi)).toEqual(await run(pair.referenceApi));
    });
  });
});

describe("api-key: keys in a shared secondary storage", () => {
  it("a key one side keeps only in secondary storage verifies and authenticates on the other", async () => {
    const store = yieldingStore();
    const pair = await createApiKeyPair({
      plugin: { storage: "secondary-storage", enableSessionForAPIKeys: true },
      reference: { secondaryStorage: store },
      latchkey: { secondaryStorage: store },
    });
    try {
      const userId = await new Browser(pair.reference).signUp("shared-store@example.com");
      for (const [from, to, handler] of [
        [pair.referenceApi, pair.latchkeyApi, pair.latchkey],
        [pair.latchkeyApi, pair.referenceApi, pair.reference],
      ] as const) {
        const made = await serverKey(from, { userId, permissions: { files: ["read"] } });
        expect((pair.db.prepare("select count(*) as n from apikey").all([]) as { n: number }[])[0]!.n).toBe(0);
        expect(await verify(to, { key: made.key, permissions: { files: ["read"] } })).toMatchObject({ valid: true, key: { id: made.id } });
        const session = await new Browser(handler).send("/get-session", undefined, { "x-api-key": made.key });
        expect(session.json).toMatchObject({ user: { id: userId }, session: { id: made.id } });
      }
    } finally {
      pair.close();
    }
  });
});

describe("api-key: the reference's apiKeyClient against Latchkey over HTTP", () => {
  it("create, get, list, update and delete through authClient.apiKey.*", async () => {
    const server = await listen();
    const pair = await createApiKeyPair({ baseURL: server.origin });
    server.use(pair.latchkey);
    try {
      const jar = jarFetch();
      const client = createAuthClient({
        baseURL: `${server.origin}${BASE_PATH}`,
        plugins: [apiKeyClient()],
        fetchOptions: { customFetchImpl: jar.fetch },
      });
      await client.signUp.email({ email: "client@example.com", password: PASSWORD, name: "Client" });
      const created = await client.apiKey.create({ name: "from-client" });
      expect(created.error).toBeNull();
      expect(created.data?.key).toMatch(/^[a-zA-Z]{64}$/);
      const got = await client.apiKey.get({ query: { id: created.data!.id } });
      expect(got.data).toMatchObject({ id: created.data!.id, name: "from-client" });
      const listed = await client.apiKey.list();
      expect(listed.data).toMatchObject({ total: 1 });
      const updated = await client.apiKey.update({ keyId: created.data!.id, name: "renamed" });
      expect(updated.data).toMatchObject({ name: "renamed" });
      const refused = await client.apiKey.update({ keyId: created.data!.id, remaining: 4 });
      expect(refused.error).toMatchObject({ status: 400, code: "SERVER_ONLY_PROPERTY" });
      const deleted = await client.apiKey.delete({ keyId: created.data!.id });
      expect(deleted.data).toEqual({ success: true });
      expect(jar.calls).toEqual([
        "POST /api/auth/sign-up/email → 200",
        "POST /api/auth/api-key/create → 200",
        "GET /api/auth/api-key/get → 200",
        "GET /api/auth/api-key/list → 200",
        "POST /api/auth/api-key/update → 200",
        "POST /api/auth/api-key/update → 400",
        "POST /api/auth/api-key/delete → 200",
      ]);
    } finally {
      await server.close();
      pair.close();
    }
  });
});
