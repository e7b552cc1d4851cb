import { describe, expect, it } from "vitest";
import { deliver, withMinimumDuration } from "../src/index.ts";
import { testInstance } from "./support/instance.ts";

/** The mail helpers core exports for plugins (email OTP, magic link) that must not reveal whether an address exists. */
describe("deliver and withMinimumDuration (public entry)", () => {
  it("withMinimumDuration answers no sooner than the floor, for a value and for an error", async () => {
    let start = Date.now();
    expect(await withMinimumDuration(80, async () => "done")).toBe("done");
    expect(Date.now() - start).toBeGreaterThanOrEqual(75);
    start = Date.now();
    await expect(withMinimumDuration(80, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(Date.now() - start).toBeGreaterThanOrEqual(75);
  });

  it("deliver swallows a sender's failure and logs only its class", async () => {
    const logs: string[] = [];
    const t = testInstance({ logger: { level: "debug", log: (_level, message) => void logs.push(message) } });
    const ctx = { context: t.auth.$context } as unknown as Parameters<typeof deliver>[0];
    await deliver(ctx, "sign-in OTP", async () => {
      throw new TypeError("smtp refused secret@example.com");
    });
    expect(logs.join("\n")).toContain("TypeError");
    expect(logs.join("\n")).not.toContain("secret@example.com");
  });
});
