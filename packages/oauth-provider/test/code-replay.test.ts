import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import type { DatabaseKind, TestAuth, TestClient } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, authorizeCode, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

// Spec States ("authorization code issued") and RFC 6749 §4.1.2: a code is redeemed once; when
// it is presented again, the tokens already issued from it are revoked.
type Backend = DatabaseKind | "redis";
const BACKENDS: Backend[] = ["sqlite", "postgres", "mysql", "redis"];
const PARALLEL = 20;

describe.each(BACKENDS)("authorization code single use on %s", (backend) => {
  let t: TestAuth;
  let browser: TestClient;
  let redis: Redis | undefined;
  let clear = async () => {};
  beforeAll(async () => {
    if (backend === "redis") {
      redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
      await redis.connect();
      const storage = redisStorage({ client: redis, keyPrefix: `lk-oauth-replay-${randomUUID()}:` });
      clear = () => storage.clear();
      t = await providerInstance({}, "sqlite", { secondaryStorage: storage, session: { storeSessionInDatabase: true } });
    } else {
      t = await providerInstance({}, backend);
    }
    browser = await signedIn(t);
  });
  afterAll(async () => {
    await t.close();
    await clear();
    redis?.disconnect();
  });

  async function issuedCode() {
    const c = await adminClient(t);
    const basic = { id: c.client_id, secret: c.client_secret! };
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge);
    const form = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT };
    return { clientId: c.client_id, basic, form };
  }
  const rowsOf = async (clientId: string) => {
    const where = [{ field: "clientId", value: clientId }];
    const adapter = t.auth.$context.adapter;
    return (await adapter.count({ model: "oauthAccessToken", where })) + (await adapter.count({ model: "oauthRefreshToken", where }));
  };

  it(`${PARALLEL} parallel redemptions of one code: exactly one token set`, async () => {
    const { clientId, basic, form } = await issuedCode();
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => formPost(browser, "/oauth2/token", form, basic)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(PARALLEL - 1).fill(400)]);
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(answer.json).toEqual({ error: "invalid_grant", error_description: "invalid code" });
    }
    // One access token and one refresh token at most (a loser's revocation may already have run
    // after the winner's commit, which leaves fewer).
    expect(await rowsOf(clientId)).toBeLessThanOrEqual(2);
    // A later presentation revokes whatever the race left.
    expect((await formPost(browser, "/oauth2/token", form, basic)).status).toBe(400);
    expect(await rowsOf(clientId)).toBe(0);
  });

  it("a second presentation revokes the access token, the refresh token and its rotations", async () => {
    const { clientId, basic, form } = await issuedCode();
    const first = await formPost(browser, "/oauth2/token", form, basic);
    expect(first.status).toBe(200);
    const issued = first.json as { access_token: string; refresh_token: string };
    const rotated = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: issued.refresh_token }, basic);
    expect(rotated.status).toBe(200);
    const current = rotated.json as { access_token: string; refresh_token: string };
    expect((await formPost(browser, "/oauth2/introspect", { token: current.access_token }, basic)).json).toMatchObject({ active: true });

    const replay = await formPost(browser, "/oauth2/token", form, basic);
    expect([replay.status, replay.json]).toEqual([400, { error: "invalid_grant", error_description: "invalid code" }]);
    expect(replay.headers.get("cache-control")).toBe("no-store");
    for (const token of [issued.access_token, current.access_token, current.refresh_token]) {
      expect((await formPost(browser, "/oauth2/introspect", { token }, basic)).json).toEqual({ active: false });
    }
    const refresh = await formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: current.refresh_token }, basic);
    expect([refresh.status, (refresh.json as { error: string }).error]).toEqual([400, "invalid_grant"]);
    expect(await rowsOf(clientId)).toBe(0);
  });

  it("an unknown code revokes nothing of other grants", async () => {
    const { clientId, basic, form } = await issuedCode();
    expect((await formPost(browser, "/oauth2/token", form, basic)).status).toBe(200);
    const unknown = await formPost(browser, "/oauth2/token", { ...form, code: "A".repeat(32) }, basic);
    expect(unknown.status).toBe(400);
    expect(await rowsOf(clientId)).toBe(2);
  });
});
