import { createAuth, memoryAdapter } from "@latchkey/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { oneTap } from "../src/index.ts";

// Type tests for a plugin's share of `auth.api`; `tsc` (the typecheck step) checks them.
const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000" };

describe("oneTap() in auth.api", () => {
  it("adds oneTapCallback with its body type and answer; absent without the plugin", () => {
    const auth = createAuth({ ...base, plugins: [oneTap({ clientId: "client" })] });
    expect(typeof auth.api.oneTapCallback).toBe("function");
    expectTypeOf(auth.api.oneTapCallback).toBeCallableWith({ body: { idToken: "t" } });
    expectTypeOf(auth.api.oneTapCallback).toBeCallableWith({ body: { idToken: "t", callbackURL: "/" } });
    expectTypeOf<Awaited<ReturnType<typeof auth.api.oneTapCallback>>>().toHaveProperty("token").toEqualTypeOf<string>();
    // @ts-expect-error: idToken is required.
    expectTypeOf(auth.api.oneTapCallback).toBeCallableWith({ body: {} });
    // Core's endpoints stay typed beside the plugin's.
    expectTypeOf(auth.api.getSession).toBeFunction();

    const bare = createAuth(base);
    // @ts-expect-error: one-tap is not installed on this instance.
    expect(bare.api.oneTapCallback).toBeUndefined();
  });
});
