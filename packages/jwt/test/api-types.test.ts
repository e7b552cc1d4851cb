import { createAuth, memoryAdapter } from "@latchkey/core";
import type { JWTPayload } from "jose";
import { describe, expect, expectTypeOf, it } from "vitest";
import { jwt } from "../src/index.ts";

// Type tests for the plugin's share of `auth.api`; `tsc` (the typecheck step) checks them.
const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000" };

describe("jwt() in auth.api", () => {
  it("adds getJwks, getToken, signJWT and verifyJWT with their types; absent without the plugin", () => {
    const auth = createAuth({ ...base, plugins: [jwt()] });
    for (const name of ["getJwks", "getToken", "signJWT", "verifyJWT"] as const) expect(typeof auth.api[name]).toBe("function");
    expectTypeOf(auth.api.signJWT).toBeCallableWith({ body: { payload: { sub: "x" } } });
    expectTypeOf(auth.api.verifyJWT).toBeCallableWith({ body: { token: "t", issuer: "https://issuer.test" } });
    expectTypeOf<Awaited<ReturnType<typeof auth.api.getToken>>>().toHaveProperty("token").toEqualTypeOf<string>();
    expectTypeOf<Awaited<ReturnType<typeof auth.api.verifyJWT>>>().toHaveProperty("payload").toEqualTypeOf<JWTPayload | null>();
    // @ts-expect-error: payload is required.
    expectTypeOf(auth.api.signJWT).toBeCallableWith({ body: {} });

    const bare = createAuth(base);
    // @ts-expect-error: jwt is not installed on this instance.
    expect(bare.api.getJwks).toBeUndefined();
  });
});
