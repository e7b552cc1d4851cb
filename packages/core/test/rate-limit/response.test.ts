import { afterEach, describe, expect, it, vi } from "vitest";
import { createAuth, memoryAdapter, type LatchkeyPlugin } from "../../src/index.ts";
import { BASE, CLIENT_IP, limitedInstance, SECRET } from "./instance.ts";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe("the 429 (reference core.md §11.2)", () => {
  it("status, statusText, body, content type and X-Retry-After as the reference sends them", async () => {
    const { send, statuses } = limitedInstance();
    expect(await statuses(3, "/sign-in/email", { method: "POST", body: "{}" })).toEqual([400, 400, 400]);
    const res = await send("/sign-in/email", { method: "POST", body: "{}" });
    expect(res.status).toBe(429);
    expect(res.statusText).toBe("Too Many Requests");
    expect(res.headers.get("content-type")).toBe("text/plain;charset=UTF-8");
    expect(res.headers.get("x-retry-after")).toBe("10");
    // Only the reference's own header: no standard Retry-After, no cookies.
    expect(res.headers.get("retry-after")).toBeNull();
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await res.text()).toBe('{"message":"Too many requests. Please try again later."}');
  });

  it("X-Retry-After counts down to the end of the window, rounded up", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_700_000_000_000);
    const { send, statuses } = limitedInstance({
      rateLimit: { customRules: { "/ok": { window: 60, max: 2 } } },
    });
    expect(await statuses(2, "/ok")).toEqual([200, 200]);
    vi.setSystemTime(1_700_000_000_000 + 12_300);
    expect((await send("/ok")).headers.get("x-retry-after")).toBe("48");
    vi.setSystemTime(1_700_000_000_000 + 59_001);
    expect((await send("/ok")).headers.get("x-retry-after")).toBe("1");
  });
});

describe("where the limiter runs in the pipeline", () => {
  it("unknown paths and HEAD requests count, as in the reference (it runs before routing)", async () => {
    const { statuses } = limitedInstance({ rateLimit: { max: 2 } });
    expect(await statuses(3, "/no-such-route")).toEqual([404, 404, 429]);
    expect(await statuses(3, "/ok", { method: "HEAD" })).toEqual([404, 404, 429]);
    // Requests outside basePath are keyed by their full path.
    const { auth } = limitedInstance({ rateLimit: { max: 1 } });
    const outside = () =>
      auth.handler(new Request(`${BASE}/elsewhere`, { headers: { "x-forwarded-for": CLIENT_IP } }));
    expect([(await outside()).status, (await outside()).status]).toEqual([404, 429]);
  });

  it("disabledPaths answer 404 before the limiter and are not counted", async () => {
    const { statuses } = limitedInstance({ disabledPaths: ["/ok"], rateLimit: { max: 1 } });
    expect(await statuses(3, "/ok")).toEqual([404, 404, 404]);
  });

  it("a 429 skips the plugins' onResponse (the reference returns it from onRequest)", async () => {
    const seen: number[] = [];
    const plugin: LatchkeyPlugin = { id: "watch", onResponse: (res) => void seen.push(res.status) };
    const { statuses } = limitedInstance({ plugins: [plugin], rateLimit: { max: 1 } });
    expect(await statuses(2, "/ok")).toEqual([200, 429]);
    expect(seen).toEqual([200]);
  });

  it("auth.api calls from server code are never limited", async () => {
    const { auth, statuses } = limitedInstance({ rateLimit: { max: 1 } });
    expect(await statuses(2, "/ok")).toEqual([200, 429]);
    for (let i = 0; i < 3; i++) expect(await auth.api.ok!({})).toEqual({ ok: true });
  });

  it("each instance has its own memory store", async () => {
    const a = limitedInstance({ rateLimit: { max: 1 } });
    const b = limitedInstance({ rateLimit: { max: 1 } });
    expect(await a.statuses(2, "/ok")).toEqual([200, 429]);
    expect(await b.statuses(2, "/ok")).toEqual([200, 429]);
  });
});

describe("enabled", () => {
  const plain = () =>
    createAuth({ database: memoryAdapter(), secret: SECRET, baseURL: BASE, logger: { disabled: true } });
  const burst = async (handler: (r: Request) => Promise<Response>, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await handler(
        new Request(`${BASE}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "x-forwarded-for": CLIENT_IP },
        }),
      );
      out.push(res.status);
    }
    return out;
  };

  it("defaults to off outside production (vitest runs with NODE_ENV=test)", async () => {
    expect(await burst(plain().handler, 5)).not.toContain(429);
  });

  it("defaults to on when NODE_ENV is production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    expect((await burst(plain().handler, 4)).slice(3)).toEqual([429]);
  });

  it("rateLimit.enabled: false turns it off in production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const auth = createAuth({
      database: memoryAdapter(),
      secret: SECRET,
      baseURL: BASE,
      logger: { disabled: true },
      rateLimit: { enabled: false },
    });
    expect(await burst(auth.handler, 5)).not.toContain(429);
  });

  it("a window of 1 s: the count restarts once it has passed", async () => {
    const { statuses } = limitedInstance({ rateLimit: { customRules: { "/ok": { window: 1, max: 2 } } } });
    expect(await statuses(3, "/ok")).toEqual([200, 200, 429]);
    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect(await statuses(3, "/ok")).toEqual([200, 200, 429]);
  });
});
