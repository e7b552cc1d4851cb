import { describe, expect, it } from "vitest";
import { createAuth, memoryAdapter } from "../src/index.ts";

describe("internalAdapter.createSession", () => {
  const auth = createAuth({ database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000", logger: { disabled: true } });

  it("takes a caller's `expiresAt` from `extra`, and the configured lifetime otherwise", async () => {
    const ia = auth.$context.internalAdapter;
    const user = await ia.createUser({ email: "expiry@example.com", name: "E" });
    const fixed = new Date(Date.now() + 60_000);
    const short = await ia.createSession(user!.id, false, {}, null, { expiresAt: fixed });
    expect(short!.expiresAt.getTime()).toBe(fixed.getTime());
    const normal = await ia.createSession(user!.id, false);
    expect(normal!.expiresAt.getTime() - Date.now()).toBeGreaterThan(604_700_000);
  });
});
