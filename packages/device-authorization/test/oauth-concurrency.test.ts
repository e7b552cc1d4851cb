import { randomUUID } from "node:crypto";
import { redisStorage } from "@latchkey/redis-storage";
import type { DatabaseKind, TestAuth } from "@latchkey/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedIn, claimAndApprove } from "./instance.ts";
import { DEVICE_GRANT, deviceClient, form, oauthDeviceInstance } from "./oauth-instance.ts";

/** Issues a code to a public client, has a user approve it, then polls `/oauth2/token` ten times at once. */
async function tenPolls(t: TestAuth, name: string) {
  const made = await deviceClient(t, { scope: "openid offline_access" });
  const issued = await form(t, "/device/code", { client_id: made.client_id, scope: "openid offline_access" });
  const codes = issued.json as { device_code: string; user_code: string };
  const { browser, userId } = await signedIn(t, name);
  await claimAndApprove(browser, codes.user_code);
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => form(t, "/oauth2/token", { grant_type: DEVICE_GRANT, device_code: codes.device_code, client_id: made.client_id })),
  );
  return { answers, clientId: made.client_id, userId };
}

const expectOneTokenSet = async (t: TestAuth, { answers, clientId }: Awaited<ReturnType<typeof tenPolls>>) => {
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  // A poll that read the row after another recorded its poll is told to slow down; one that lost the take, invalid_grant.
  for (const answer of answers.filter((a) => a.status !== 200)) expect(["invalid_grant", "slow_down"]).toContain(answer.json!.error);
  const adapter = t.auth.$context.adapter;
  expect(await adapter.count({ model: "oauthRefreshToken", where: [{ field: "clientId", value: clientId }] })).toBe(1);
  expect(await adapter.count({ model: "oauthAccessToken", where: [{ field: "clientId", value: clientId }] })).toBe(1);
  expect(await adapter.count({ model: "deviceCode", where: [{ field: "oauthClientId", value: clientId }] })).toBe(0);
};

// Single use: an approved code polled by ten requests at once yields exactly one token set.
describe.each<DatabaseKind>(["sqlite", "postgres", "mysql"])("ten parallel device_code redemptions at /oauth2/token on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await oauthDeviceInstance(kind);
  });
  afterAll(() => t.close());

  it("one token set, the rest invalid_grant or slow_down, the row gone", async () => {
    await expectOneTokenSet(t, await tenPolls(t, `race-${kind}`));
  });
});

describe("ten parallel redemptions with Redis secondary storage (sessions in both, as oauth-provider requires)", () => {
  const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  const storage = redisStorage({ client: redis, keyPrefix: `lk-oauth-device-${randomUUID()}:` });
  let t: TestAuth;
  beforeAll(async () => {
    await redis.connect();
    t = await oauthDeviceInstance("sqlite", { interval: "1s" }, { secondaryStorage: storage, session: { storeSessionInDatabase: true } });
  });
  afterAll(async () => {
    await t.close();
    await storage.clear();
    redis.disconnect();
  });

  it("one token set", async () => {
    await expectOneTokenSet(t, await tenPolls(t, "race-redis"));
  });
});
