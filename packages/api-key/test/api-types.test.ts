import { createAuth, memoryAdapter } from "@latchkey/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { apiKey } from "../src/index.ts";

// Type tests for the plugin's share of `auth.api`; `tsc` (the typecheck step) checks them.
const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000" };

describe("apiKey() in auth.api", () => {
  it("adds the seven endpoints under the reference's names, typed by their bodies", () => {
    const auth = createAuth({ ...base, plugins: [apiKey()] });
    const names = ["createApiKey", "verifyApiKey", "getApiKey", "updateApiKey", "deleteApiKey", "listApiKeys", "deleteAllExpiredApiKeys"] as const;
    for (const name of names) expect(typeof auth.api[name]).toBe("function");
    expectTypeOf(auth.api.createApiKey).toBeCallableWith({ body: { userId: "u", name: "ci", remaining: 10, permissions: { files: ["read"] } } });
    expectTypeOf(auth.api.verifyApiKey).toBeCallableWith({ body: { key: "k", permissions: { files: ["read"] } } });
    expectTypeOf<Awaited<ReturnType<typeof auth.api.verifyApiKey>>>().toHaveProperty("valid").toEqualTypeOf<boolean>();
    expectTypeOf<Awaited<ReturnType<typeof auth.api.createApiKey>>>().toHaveProperty("key").toEqualTypeOf<string>();
    // @ts-expect-error: the key to verify is required.
    expectTypeOf(auth.api.verifyApiKey).toBeCallableWith({ body: {} });

    const bare = createAuth(base);
    // @ts-expect-error: api-key is not installed on this instance.
    expect(bare.api.verifyApiKey).toBeUndefined();
  });
});
