import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createLogger,
  memoryAdapter,
  rateLimitSchema,
  resolveSchema,
  type RateLimitConsumeStorage,
  type Row,
} from "../../src/index.ts";
import { databaseStorage } from "../../src/rate-limit/database-storage.ts";
import { memoryStorage } from "../../src/rate-limit/memory-storage.ts";
import { stepWindow } from "../../src/rate-limit/window.ts";
import { limitedInstance } from "./instance.ts";

afterEach(() => vi.useRealTimers());

const rule = { window: 10, max: 3 };
const T0 = 1_700_000_000_000;

/** A clock the test moves by hand (seconds after T0). */
function clock() {
  let t = T0;
  return { now: () => t, at: (seconds: number) => void (t = T0 + seconds * 1000) };
}

describe("stepWindow (the reference's memory and database algorithm)", () => {
  it("starts at 1, counts up to max, then refuses without writing", () => {
    expect(stepWindow(null, "k", rule, T0)).toEqual({
      allowed: true,
      retryAfter: null,
      next: { key: "k", count: 1, lastRequest: T0 },
    });
    const full = { key: "k", count: 3, lastRequest: T0 };
    expect(stepWindow(full, "k", rule, T0 + 2500)).toEqual({ allowed: false, retryAfter: 8, next: null });
    expect(stepWindow({ ...full, count: 2 }, "k", rule, T0 + 1)).toEqual({
      allowed: true,
      retryAfter: null,
      next: { key: "k", count: 3, lastRequest: T0 + 1 },
    });
  });

  it("restarts once `window` has passed since the last allowed request", () => {
    const full = { key: "k", count: 3, lastRequest: T0 };
    expect(stepWindow(full, "k", rule, T0 + 9999).allowed).toBe(false);
    expect(stepWindow(full, "k", rule, T0 + 10_000)).toMatchObject({ allowed: true, next: { count: 1 } });
  });
});

/** The same clock-driven scenario against each store that runs the sliding algorithm. */
function windowScenario(name: string, make: (now: () => number) => RateLimitConsumeStorage) {
  describe(`${name}: window semantics with an injected clock`, () => {
    it("the window runs from the last allowed request; refusals do not move it", async () => {
      const c = clock();
      const store = make(c.now);
      const seq: Array<[number, boolean, number | null]> = [];
      for (const s of [0, 1, 2, 5, 11.9, 12, 12.5]) {
        c.at(s);
        const d = await store.consume("1.2.3.4|/x", rule);
        seq.push([s, d.allowed, d.retryAfter]);
      }
      expect(seq).toEqual([
        [0, true, null],
        [1, true, null],
        [2, true, null],
        // Last allowed at 2 s: the window ends at 12 s.
        [5, false, 7],
        [11.9, false, 1],
        [12, true, null],
        [12.5, true, null],
      ]);
    });

    it("keys are independent", async () => {
      const c = clock();
      const store = make(c.now);
      for (let i = 0; i < 3; i++) await store.consume("a", rule);
      expect((await store.consume("a", rule)).allowed).toBe(false);
      expect((await store.consume("b", rule)).allowed).toBe(true);
    });
  });
}

windowScenario("memory", (now) => memoryStorage({ now }));
windowScenario("database (memory adapter)", (now) => {
  const schema = resolveSchema([{ owner: "core", schema: rateLimitSchema }]);
  const adapter = memoryAdapter()({ schema, logger: createLogger({ disabled: true }) });
  let id = 0;
  return databaseStorage({
    adapter,
    generateId: () => `row${id++}`,
    logger: createLogger({ disabled: true }),
    windows: [10],
    now,
  });
});

describe("memory store housekeeping", () => {
  it("sweeps expired entries (at most every 10 s)", async () => {
    const c = clock();
    const store = memoryStorage({ now: c.now });
    for (const key of ["a", "b", "c"]) await store.consume(key, { window: 5, max: 1 });
    expect(store.size).toBe(3);
    c.at(20);
    await store.consume("d", rule);
    expect(store.size).toBe(1);
  });

  it("caps the entries, dropping the least recently allowed key first", async () => {
    const c = clock();
    const store = memoryStorage({ now: c.now, maxEntries: 2 });
    const one = { window: 60, max: 1 };
    await store.consume("a", one);
    await store.consume("b", one);
    await store.consume("c", one);
    expect(store.size).toBe(2);
    // "a" was dropped: it starts over; "b" and "c" are still full.
    expect((await store.consume("b", one)).allowed).toBe(false);
    expect((await store.consume("a", one)).allowed).toBe(true);
  });
});

describe("database store housekeeping", () => {
  it("deletes rows older than the longest window when a window restarts (at most once a minute)", async () => {
    const c = clock();
    const store: Record<string, Row[]> = {};
    const schema = resolveSchema([{ owner: "core", schema: rateLimitSchema }]);
    const adapter = memoryAdapter(store)({ schema, logger: createLogger({ disabled: true }) });
    let id = 0;
    const db = databaseStorage({
      adapter,
      generateId: () => `id${id++}`,
      logger: createLogger({ disabled: true }),
      windows: [10, 60],
      now: c.now,
    });
    await db.consume("old", rule);
    await db.consume("recent", rule);
    c.at(61);
    await db.consume("recent", rule);
    expect(store.rateLimit!.map((r) => r.key)).toEqual(["recent"]);
  });
});

describe("through auth.handler with a moved clock", () => {
  it("a refused client is let through again when the window has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0);
    const { statuses } = limitedInstance();
    const signIn = { method: "POST", body: "{}" };
    expect(await statuses(4, "/sign-in/email", signIn)).toEqual([400, 400, 400, 429]);
    vi.setSystemTime(T0 + 9_999);
    expect(await statuses(1, "/sign-in/email", signIn)).toEqual([429]);
    vi.setSystemTime(T0 + 10_000);
    expect(await statuses(4, "/sign-in/email", signIn)).toEqual([400, 400, 400, 429]);
  });
});
