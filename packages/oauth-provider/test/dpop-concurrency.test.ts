import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import { client, type DatabaseKind, type TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, providerInstance } from "./instance.ts";

/** 10 parallel token requests carrying one DPoP proof: exactly one is answered with a token. */
async function parallelProofs(t: TestAuth): Promise<void> {
  const c = await adminClient(t, { grant_types: ["client_credentials"], client_credentials_scopes: ["reports:read"] });
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const proof = await new SignJWT({ htm: "POST", htu: `${t.auth.$context.baseURL}/oauth2/token`, jti: "one-proof", iat: Math.floor(Date.now() / 1000) })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(publicKey) })
    .sign(privateKey);
  const browser = client(t.auth);
  const send = () =>
    browser.request("/oauth2/token", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}`,
        dpop: proof,
      },
      body: new URLSearchParams({ grant_type: "client_credentials" }).toString(),
    });
  const answers = await Promise.all(Array.from({ length: 10 }, send));
  expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
  for (const refused of answers.filter((a) => a.status === 400)) {
    expect(refused.json).toEqual({ error: "invalid_dpop_proof", error_description: "DPoP proof jti has already been used" });
  }
  expect(await t.auth.$context.adapter.count({ model: "oauthAccessToken", where: [{ field: "clientId", value: c.client_id }] })).toBe(1);
}

const SCOPES = { scopes: ["openid", "reports:read"] };
const KINDS: DatabaseKind[] = ["sqlite", "postgres", "mysql"];

describe.each(KINDS)("DPoP proofs are single use on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance(SCOPES, kind);
  });
  afterAll(() => t.close());

  it("10 parallel uses of one proof: one token; the proof is a verification row", async () => {
    await parallelProofs(t);
    const rows = await t.auth.$context.adapter.findMany<{ identifier: string }>({ model: "verification" });
    expect(rows.filter((row) => row.identifier.startsWith("dpop-proof:"))).toHaveLength(1);
  });
});

/**
 * A provider on `kind` with Redis secondary storage under a key prefix of its own, opened and
 * closed by the calling describe block's hooks.
 */
function withRedis(kind: DatabaseKind, extra: Record<string, unknown> = {}) {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  const prefix = `lk-oauth-dpop-${randomUUID()}:`;
  const storage = redisStorage({ client: redis, keyPrefix: prefix });
  const live = { redis, prefix, t: undefined as unknown as TestAuth };
  beforeAll(async () => {
    await redis.connect();
    live.t = await providerInstance(SCOPES, kind, { secondaryStorage: storage, session: { storeSessionInDatabase: true }, ...extra });
  });
  afterAll(async () => {
    await live.t.close();
    await storage.clear();
    redis.disconnect();
  });
  return live;
}

describe("DPoP proofs are single use with Redis secondary storage", () => {
  const live = withRedis("sqlite");

  it("10 parallel uses of one proof: one token; the proof is counted in Redis, not the database", async () => {
    const { t, redis, prefix } = live;
    await parallelProofs(t);
    // Verification values live in Redis only here (no verification table): the proof is a counter key.
    expect(await redis.keys(`${prefix}dpop-proof:*`)).toHaveLength(1);
  });
});

describe("DPoP proofs with Redis and verification.storeInDatabase (the reference's reservation)", () => {
  const live = withRedis("postgres", { verification: { storeInDatabase: true } });

  it("10 parallel uses of one proof: one token; one verification row with the reference's 43-character id, and its copy in Redis", async () => {
    const { t, redis, prefix } = live;
    await parallelProofs(t);
    const rows = await t.auth.$context.adapter.findMany<{ id: string; identifier: string }>({ model: "verification" });
    const proofs = rows.filter((row) => row.identifier.startsWith("dpop-proof:"));
    expect(proofs).toHaveLength(1);
    expect(proofs[0]!.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await redis.keys(`${prefix}verification:dpop-proof:*`)).toHaveLength(1);
  });
});
