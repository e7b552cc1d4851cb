import { describe, expect, it } from "vitest";
import { createAuth, endpoint, getService, memoryAdapter, provide, serviceKey, type LatchkeyPlugin } from "../src/index.ts";
import { testInstance } from "./support/instance.ts";

interface Clock {
  now(): number;
}
const CLOCK = serviceKey<Clock>("test.clock");

const clockPlugin: LatchkeyPlugin<"clock"> = {
  id: "clock",
  init: () => ({ services: [provide(CLOCK, { now: () => 42 })] }),
};

/** Reads the clock service through its key: typed, no cast. */
const timePlugin = {
  id: "time",
  requires: ["clock"],
  endpoints: {
    time: endpoint("/time", { method: "GET" }, (ctx) => ({ now: getService(ctx.context, CLOCK).now() })),
  },
} satisfies LatchkeyPlugin;

const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000" };

describe("plugin services and dependencies", () => {
  it("a service one plugin publishes is read by another through its key", async () => {
    const t = testInstance({ plugins: [clockPlugin, timePlugin] });
    expect(await (await t.request("/time")).json()).toEqual({ now: 42 });
    expect(await t.auth.api.time()).toEqual({ now: 42 });
  });

  it("refuses to start when a required plugin is missing, naming it", () => {
    expect(() => createAuth({ ...base, plugins: [timePlugin] })).toThrow(
      new TypeError('Plugin "time" needs the plugin "clock": add it to `plugins`.'),
    );
  });

  it("refuses a service published twice", async () => {
    const twice = { ...clockPlugin, id: "clock-2" };
    const t = testInstance({ plugins: [clockPlugin, twice] });
    await expect(t.auth.api.ok()).rejects.toThrow(/service "test.clock"/);
  });

  it("a missing service is a programmer error with the key's name", async () => {
    const logged: string[] = [];
    const t = testInstance({
      plugins: [{ ...timePlugin, requires: [] }],
      logger: { log: (_level, message, ...args) => void logged.push(message, ...args.map(String)) },
    });
    expect((await t.request("/time")).status).toBe(500);
    expect(logged.join("\n")).toContain('No installed plugin publishes the service "test.clock".');
  });

  it("two instances built from one plugin object dispatch each into its own pipeline", async () => {
    const hits: string[] = [];
    const shared: LatchkeyPlugin = {
      id: "shared",
      endpoints: { who: endpoint("/who", { method: "GET" }, (ctx) => ({ app: ctx.context.appName })) },
      hooks: { before: [{ matcher: ["who"], handler: (ctx) => void hits.push(ctx.context.appName) }] },
    };
    const a = testInstance({ appName: "A", plugins: [shared] });
    const b = testInstance({ appName: "B", plugins: [shared] });
    expect(await (await a.request("/who")).json()).toEqual({ app: "A" });
    expect(await (await b.request("/who")).json()).toEqual({ app: "B" });
    expect(await (await a.request("/who")).json()).toEqual({ app: "A" });
    expect(hits).toEqual(["A", "B", "A"]);
  });
});
