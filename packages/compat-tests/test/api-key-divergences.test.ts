import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, createApiKeyPair, withApiKeyPair, serverKey, verify, yieldingStore, type ApiKeyPair, type LooseApi } from "./support/api-key-pair.ts";
import type { Handler } from "./support/instances.ts";

/**
 * `@latchkey/api-key` beside the reference's `apiKey()`: the differences of DIVERGENCES.md rows
 * 200-208, each asserting both sides' own behaviour.
 */
/** Moves a stored date of a key `ms` into the past (the clock moving on, without waiting). */
function ageColumn(pair: ApiKeyPair, id: string, column: "lastRequest", ms: number): void {
  const row = pair.db.prepare(`select ${column} as v from apikey where id = ?`).all([id]) as { v: string | number }[];
  const aged = new Date(new Date(row[0]!.v).getTime() - ms).toISOString();
  pair.db.prepare(`update apikey set ${column} = ? where id = ?`).run([aged, id]);
}

const remainingOf = (pair: ApiKeyPair, id: string): number =>
  (pair.db.prepare("select remaining from apikey where id = ?").all([id]) as { remaining: number }[])[0]!.remaining;

describe("api-key: divergences (DIVERGENCES.md rows 99, 101, 102)", () => {
  let pair: ApiKeyPair;
  let userId: string;
  beforeAll(async () => {
    pair = await createApiKeyPair({ plugin: { enableSessionForAPIKeys: true } });
    userId = await new Browser(pair.reference).signUp("rows@example.com");
  });
  afterAll(() => pair.close());

  it("row 99: a session from a key that never expires — the reference's ends ~10 minutes out (604800 ms), Latchkey's after session.expiresIn (7 days)", async () => {
    const expiresIn = async (handler: Handler, api: LooseApi) => {
      const made = await serverKey(api, { userId });
      const answer = await new Browser(handler).send("/get-session", undefined, { "x-api-key": made.key });
      return new Date((answer.json as { session: { expiresAt: string } }).session.expiresAt).getTime() - Date.now();
    };
    const reference = await expiresIn(pair.reference, pair.referenceApi);
    expect(reference).toBeGreaterThan(590_000);
    expect(reference).toBeLessThanOrEqual(604_800);
    const latchkey = await expiresIn(pair.latchkey, pair.latchkeyApi);
    expect(latchkey).toBeGreaterThan(604_800_000 - 60_000);
    expect(latchkey).toBeLessThanOrEqual(604_800_000);
  });

  it("row 99: a session from a key that expires ends with the key on both", async () => {
    for (const [handler, api] of [[pair.reference, pair.referenceApi], [pair.latchkey, pair.latchkeyApi]] as const) {
      const made = await serverKey(api, { userId, expiresIn: 3 * 86_400 });
      const answer = await new Browser(handler).send("/get-session", undefined, { "x-api-key": made.key });
      expect(new Date((answer.json as { session: { expiresAt: string } }).session.expiresAt).toISOString()).toBe(new Date(made.expiresAt!).toISOString());
    }
  });

  it("row 101: the rate-limit window — the reference restarts it with every counted request and refuses a third request 65 s after the first; Latchkey's window runs from its first request", async () => {
    const run = async (api: LooseApi) => {
      const made = await serverKey(api, { userId, rateLimitMax: 2, rateLimitTimeWindow: 60_000 });
      const first = await verify(api, { key: made.key });
      ageColumn(pair, made.id, "lastRequest", 50_000);
      const second = await verify(api, { key: made.key });
      ageColumn(pair, made.id, "lastRequest", 15_000);
      const third = await verify(api, { key: made.key });
      return [first.valid, second.valid, third.valid, third.error?.code ?? null];
    };
    expect(await run(pair.referenceApi)).toEqual([true, true, false, "RATE_LIMITED"]);
    expect(await run(pair.latchkeyApi)).toEqual([true, true, true, null]);
  });

  it("row 101: within one window both allow exactly rateLimitMax and answer RATE_LIMITED with tryAgainIn", async () => {
    for (const api of [pair.referenceApi, pair.latchkeyApi]) {
      const made = await serverKey(api, { userId, rateLimitMax: 2, rateLimitTimeWindow: 60_000 });
      const verdicts = [];
      for (let i = 0; i < 3; i++) verdicts.push(await verify(api, { key: made.key }));
      expect(verdicts.map((v) => v.valid)).toEqual([true, true, false]);
      expect(verdicts[2]!.error).toMatchObject({ code: "RATE_LIMITED", message: "Rate limit exceeded.", details: { tryAgainIn: expect.any(Number) } });
      const wait = (verdicts[2]!.error as unknown as { details: { tryAgainIn: number } }).details.tryAgainIn;
      expect(wait).toBeGreaterThan(55_000);
      expect(wait).toBeLessThanOrEqual(60_000);
    }
  });

  it("row 102: a request refused by the rate limit — the reference still takes one of `remaining`, Latchkey does not", async () => {
    const run = async (api: LooseApi) => {
      const made = await serverKey(api, { userId, remaining: 10, rateLimitMax: 1, rateLimitTimeWindow: 60_000 });
      const verdicts = [];
      for (let i = 0; i < 3; i++) verdicts.push((await verify(api, { key: made.key })).error?.code ?? "ok");
      return { verdicts, remaining: remainingOf(pair, made.id) };
    };
    expect(await run(pair.referenceApi)).toEqual({ verdicts: ["ok", "RATE_LIMITED", "RATE_LIMITED"], remaining: 7 });
    expect(await run(pair.latchkeyApi)).toEqual({ verdicts: ["ok", "RATE_LIMITED", "RATE_LIMITED"], remaining: 9 });
  });
});

describe("api-key: divergence row 104 (rateLimitMax 0)", () => {
  it("row 104: a key with rateLimitMax 0 — the reference lets the first request of each window through, Latchkey none", async () => {
    await withApiKeyPair({}, "max-zero@example.com", async (pair, userId) => {
      const run = async (api: LooseApi) => {
        const made = await serverKey(api, { userId, rateLimitMax: 0, rateLimitTimeWindow: 60_000 });
        const out = [];
        for (let i = 0; i < 2; i++) out.push((await verify(api, { key: made.key })).error?.code ?? "ok");
        return out;
      };
      expect(await run(pair.referenceApi)).toEqual(["ok", "RATE_LIMITED"]);
      expect(await run(pair.latchkeyApi)).toEqual(["RATE_LIMITED", "RATE_LIMITED"]);
    });
  });
});

describe("api-key: divergence row 105 (lastRequest of keys without a rate limit)", () => {
  it("row 105: two uses 50 ms apart of a key without a rate limit — the reference writes lastRequest both times, Latchkey once (to the second)", async () => {
    await withApiKeyPair({}, "last-use@example.com", async (pair, userId) => {
      const lastRequest = (id: string): number =>
        new Date((pair.db.prepare("select lastRequest as v from apikey where id = ?").all([id]) as { v: string }[])[0]!.v).getTime();
      const run = async (api: LooseApi) => {
        const made = await serverKey(api, { userId, rateLimitEnabled: false });
        await verify(api, { key: made.key });
        const first = lastRequest(made.id);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await verify(api, { key: made.key });
        const moved = lastRequest(made.id) > first;
        ageColumn(pair, made.id, "lastRequest", 1_500);
        await verify(api, { key: made.key });
        return { movedWithin: moved, movedAfter: Date.now() - lastRequest(made.id) < 1_000 };
      };
      expect(await run(pair.referenceApi)).toEqual({ movedWithin: true, movedAfter: true });
      expect(await run(pair.latchkeyApi)).toEqual({ movedWithin: false, movedAfter: true });
    });
  });
});

describe("api-key: divergence row 100 (keyExpiration.defaultExpiresIn)", () => {
  it("row 100: defaultExpiresIn: 3600000 (one hour, in the documented milliseconds) — the reference applies it as seconds (~41.7 days), Latchkey as one hour", async () => {
    await withApiKeyPair({ plugin: { keyExpiration: { defaultExpiresIn: 3_600_000 } } }, "default-expiry@example.com", async (pair, userId) => {
      const lifetime = async (api: LooseApi) => {
        const made = await serverKey(api, { userId });
        return new Date(made.expiresAt!).getTime() - Date.now();
      };
      const reference = await lifetime(pair.referenceApi);
      expect(reference).toBeGreaterThan(3_600_000_000 - 60_000);
      expect(reference).toBeLessThanOrEqual(3_600_000_000);
      const latchkey = await lifetime(pair.latchkeyApi);
      expect(latchkey).toBeGreaterThan(3_600_000 - 60_000);
      expect(latchkey).toBeLessThanOrEqual(3_600_000);
    });
  });
});

describe("api-key: divergence row 103 (secondary-storage-only keys under concurrency)", () => {
  it("row 103: 40 parallel verifications of a key with rateLimitMax 5 and remaining 8 — the reference lets more than 5 through and counts fewer uses; Latchkey exactly 5", async () => {
    const pair = await createApiKeyPair({
      plugin: { storage: "secondary-storage" },
      reference: { secondaryStorage: yieldingStore() },
      latchkey: { secondaryStorage: yieldingStore() },
    });
    try {
      const userId = await new Browser(pair.reference).signUp("burst@example.com");
      const burst = async (api: LooseApi) => {
        const made = await serverKey(api, { userId, rateLimitMax: 5, rateLimitTimeWindow: 60_000, remaining: 8 });
        const verdicts = await Promise.all(Array.from({ length: 40 }, () => verify(api, { key: made.key })));
        return verdicts.filter((v) => v.valid).length;
      };
      expect(await burst(pair.referenceApi)).toBeGreaterThan(5);
      expect(await burst(pair.latchkeyApi)).toBe(5);
    } finally {
      pair.close();
    }
  });
});

describe("api-key: divergence row 106 (verifyApiKey refused by customAPIKeyValidator)", () => {
  it("row 106: verify with a configId whose validator refuses — the reference's error.message is an object, Latchkey's the message text", async () => {
    const pair = await createApiKeyPair({ plugin: { customAPIKeyValidator: () => false } });
    try {
      const reference = await verify(pair.referenceApi, { key: "x".repeat(64), configId: "default" });
      // As JSON (what a route answering it would send): the message is `{ code, message }`.
      expect(JSON.parse(JSON.stringify(reference))).toEqual({
        valid: false,
        error: { code: "KEY_NOT_FOUND", message: { code: "INVALID_API_KEY", message: "Invalid API key." } },
        key: null,
      });
      const latchkey = await verify(pair.latchkeyApi, { key: "x".repeat(64), configId: "default" });
      expect(latchkey).toEqual({ valid: false, error: { code: "KEY_NOT_FOUND", message: "Invalid API key." }, key: null });
    } finally {
      pair.close();
    }
  });
});

describe("api-key: divergence row 107 (a refill without remaining)", () => {
  it("row 107: a key created with refillAmount 2 and refillInterval but no remaining — unlimited on the reference, 2 uses per refill on Latchkey", async () => {
    await withApiKeyPair({}, "refill-only@example.com", async (pair, userId) => {
      const run = async (api: LooseApi) => {
        const made = (await serverKey(api, { userId, rateLimitEnabled: false, refillAmount: 2, refillInterval: 60_000 })) as { key: string; remaining?: number | null };
        const verdicts = [];
        for (let i = 0; i < 3; i++) verdicts.push((await verify(api, { key: made.key })).valid);
        return { remaining: made.remaining, verdicts };
      };
      expect(await run(pair.referenceApi)).toEqual({ remaining: null, verdicts: [true, true, true] });
      expect(await run(pair.latchkeyApi)).toEqual({ remaining: 2, verdicts: [true, true, false] });
    });
  });
});
