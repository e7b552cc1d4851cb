import { afterAll, describe, expect, it } from "vitest";
import { createAuth, memoryAdapter, type LatchkeyOptions, type Row } from "@latchkey/core";
import { redisStorage } from "../src/index.ts";
import { testRedis } from "./support/redis.ts";

const redis = testRedis();
afterAll(() => redis.cleanup());

const BASE = "http://localhost:3000";
const person = { name: "Ada", email: "ada@example.com", password: "password-1234" };

/** Two nodes on one database and one Redis prefix, as behind a load balancer. */
function cluster(options: Partial<LatchkeyOptions> = {}) {
  const keyPrefix = redis.prefix("flows");
  const store: Record<string, Row[]> = {};
  const node = () =>
    createAuth({
      database: memoryAdapter(store),
      secondaryStorage: redisStorage({ client: redis.client, keyPrefix }),
      secret: "redis-storage-test-secret-0123456789abcdef",
      baseURL: BASE,
      emailAndPassword: { enabled: true },
      logger: { disabled: true },
      ...options,
    });
  const [a, b] = [node(), node()];
  const post = (auth: typeof a, path: string, body: unknown, headers: Record<string, string> = {}) =>
    auth.handler(
      new Request(`${BASE}/api/auth${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    );
  const session = async (auth: typeof a, cookie: string) =>
    (await auth.handler(new Request(`${BASE}/api/auth/get-session`, { headers: { cookie } }))).json();
  const key = (k: string) => `${keyPrefix}${k}`;
  return { a, b, store, post, session, key };
}

const cookieOf = (res: Response): string =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith("better-auth.session_token="))!
    .split(";")[0]!;

describe("sessions through auth.handler on a real Redis", () => {
  it("a session made on one node is served and ended by another; Redis holds the reference keys", async () => {
    const c = cluster();
    const res = await c.post(c.a, "/sign-up/email", person);
    expect(res.status).toBe(200);
    const { token, user } = await res.json();
    const cookie = cookieOf(res);
    expect(c.store.session ?? []).toEqual([]);
    const stored = JSON.parse((await redis.client.get(c.key(token)))!);
    expect(stored.session).toMatchObject({ token, userId: user.id });
    expect(await redis.client.ttl(c.key(token))).toBeGreaterThan(604_790);
    expect(JSON.parse((await redis.client.get(c.key(`active-sessions-${user.id}`)))!)).toEqual([
      { token, expiresAt: Date.parse(stored.session.expiresAt) },
    ]);

    expect((await c.session(c.b, cookie)).session.token).toBe(token);
    expect((await c.post(c.b, "/sign-out", {}, { cookie })).status).toBe(200);
    expect(await redis.client.exists(c.key(token), c.key(`active-sessions-${user.id}`))).toBe(0);
    expect(await c.session(c.a, cookie)).toBeNull();
  });

  it("revoke-sessions on one node ends every session of the user for all nodes", async () => {
    const c = cluster();
    const first = await c.post(c.a, "/sign-up/email", person);
    const second = await c.post(c.b, "/sign-in/email", person);
    const cookies = [cookieOf(first), cookieOf(second)];
    expect((await c.post(c.a, "/revoke-sessions", {}, { cookie: cookies[0]! })).status).toBe(200);
    for (const cookie of cookies) {
      expect(await c.session(c.a, cookie)).toBeNull();
      expect(await c.session(c.b, cookie)).toBeNull();
    }
  });
});

describe("verification values and rate limits on a real Redis", () => {
  it("a single-use value is consumed by exactly one of 25 concurrent callers across two nodes", async () => {
    const c = cluster();
    const expiresAt = new Date(Date.now() + 60_000);
    await c.a.$context.internalAdapter.createVerificationValue({
      identifier: "reset-password:tok",
      value: "u1",
      expiresAt,
    });
    expect(await redis.client.ttl(c.key("verification:reset-password:tok"))).toBeGreaterThan(55);
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        (i % 2 ? c.a : c.b).$context.internalAdapter.consumeVerificationValue("reset-password:tok"),
      ),
    );
    expect(results.filter(Boolean).map((r) => r?.value)).toEqual(["u1"]);
    expect(await redis.client.exists(c.key("verification:reset-password:tok"))).toBe(0);
  });

  it("counts sign-in attempts as a plain integer under <ip>|<path>, shared by the nodes", async () => {
    const c = cluster({ rateLimit: { enabled: true } });
    const ip = { "x-forwarded-for": "203.0.113.7" };
    const statuses: number[] = [];
    for (const auth of [c.a, c.b, c.a, c.b]) {
      statuses.push(
        (await c.post(auth, "/sign-in/email", { email: person.email, password: "wrong-password" }, ip))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const key = c.key("203.0.113.7|/sign-in/email");
    expect(await redis.client.get(key)).toBe("4");
    const ttl = await redis.client.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10);
  });
});
