import { createAuth, memoryAdapter } from "@latchkey/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { twoFactor } from "../src/index.ts";

// Type tests for the plugin's share of `auth.api`; `tsc` (the typecheck step) checks them.
const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000" };

describe("twoFactor() in auth.api", () => {
  it("adds the reference's endpoint names, server-only ones included", () => {
    const auth = createAuth({ ...base, plugins: [twoFactor()] });
    const names = [
      "enableTwoFactor",
      "disableTwoFactor",
      "getTOTPURI",
      "verifyTOTP",
      "generateTOTP",
      "sendTwoFactorOTP",
      "verifyTwoFactorOTP",
      "verifyBackupCode",
      "generateBackupCodes",
      "viewBackupCodes",
    ] as const;
    for (const name of names) expect(typeof auth.api[name]).toBe("function");
    expectTypeOf(auth.api.generateTOTP).toBeCallableWith({ body: { secret: "x" } });
    expectTypeOf<Awaited<ReturnType<typeof auth.api.generateTOTP>>>().toEqualTypeOf<{ code: string }>();
    expectTypeOf<Awaited<ReturnType<typeof auth.api.viewBackupCodes>>>().toEqualTypeOf<{ status: boolean; backupCodes: string[] }>();
  });

  it("generateTOTP answers the code an authenticator shows", async () => {
    const auth = createAuth({ ...base, plugins: [twoFactor()] });
    const { code } = await auth.api.generateTOTP({ body: { secret: "12345678901234567890" } });
    expect(code).toMatch(/^\d{6}$/);
  });

  it("refuses options no code or cookie can carry", () => {
    expect(() => twoFactor({ totpOptions: { digits: 9 } })).toThrow(TypeError);
    expect(() => twoFactor({ totpOptions: { period: 1.5 } })).toThrow(TypeError);
    expect(() => twoFactor({ accountLockout: { maxFailedAttempts: 0 } })).toThrow(TypeError);
    expect(() => twoFactor({ trustDeviceMaxAge: -1 })).toThrow(TypeError);
    expect(() => twoFactor({ otpOptions: { period: -1 } })).toThrow(TypeError);
  });
});
