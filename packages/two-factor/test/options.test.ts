import { afterEach, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { challenged, enrolled, Outbox, PASSWORD, signedUp, storedSecret, totpCode, twoFactorInstance, userId, viewBackupCodes } from "./instance.ts";

let t: TestAuth | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("options", () => {
  it("twoFactorTable and schema renames: the table and columns carry the given names", async () => {
    t = await twoFactorInstance("sqlite", {
      twoFactorTable: "mfa_enrollment",
      schema: { twoFactor: { fields: { backupCodes: "recovery_codes" } }, user: { fields: { twoFactorEnabled: "mfa_on" } } },
    });
    const { backupCodes, userId: id, secret } = await enrolled(t, "renamed@example.com");
    const rows = await t.auth.$context.adapter.findMany<{ userId: string }>({ model: "twoFactor" });
    expect(rows.map((r) => r.userId)).toEqual([id]);
    expect(t.auth.$context.schema.twoFactor!.tableName).toBe("mfa_enrollment");
    expect(t.auth.$context.schema.twoFactor!.fields.backupCodes!.fieldName).toBe("recovery_codes");
    expect(t.auth.$context.schema.user!.fields.twoFactorEnabled!.fieldName).toBe("mfa_on");
    const browser = await challenged(t, "renamed@example.com");
    expect((await browser.post("/two-factor/verify-backup-code", { code: backupCodes[0] })).status).toBe(200);
    expect(secret).toHaveLength(32);
  });

  it("storeBackupCodes plain and custom, storeOTP hashed, encrypted and custom: each round-trips", async () => {
    const outbox = new Outbox();
    const reversed = { encrypt: async (s: string) => [...s].reverse().join(""), decrypt: async (s: string) => [...s].reverse().join("") };
    for (const [storeBackupCodes, storeOTP] of [
      ["plain", "hashed"],
      [reversed, "encrypted"],
      ["encrypted", { hash: async (s: string) => `h:${s.length}:${s}` }],
      ["plain", reversed],
    ] as const) {
      const instance = await twoFactorInstance("sqlite", { backupCodeOptions: { storeBackupCodes }, otpOptions: { sendOTP: outbox.send, storeOTP } });
      try {
        const { backupCodes, userId: id } = await enrolled(instance, "store@example.com");
        const stored = await instance.auth.$context.adapter.findOne<{ backupCodes: string }>({ model: "twoFactor", where: [{ field: "userId", value: id }] });
        if (storeBackupCodes === "plain") expect(JSON.parse(stored!.backupCodes)).toEqual(backupCodes);
        else expect(stored!.backupCodes).not.toContain(backupCodes[0]);
        expect(await viewBackupCodes(instance, id)).toEqual(backupCodes);
        const browser = await challenged(instance, "store@example.com");
        await browser.post("/two-factor/send-otp");
        const code = outbox.last("store@example.com");
        const row = await instance.auth.$context.adapter.findOne<{ value: string }>({
          model: "verification",
          where: [{ field: "identifier", operator: "starts_with", value: "2fa-otp-" }],
        });
        if (storeOTP !== "encrypted" && typeof storeOTP === "string") expect(row!.value.startsWith(`${code}:`)).toBe(false);
        expect((await browser.post("/two-factor/verify-otp", { code })).status).toBe(200);
      } finally {
        await instance.close();
      }
    }
  });

  it("allowPasswordless: a user with a password still needs it; one without may enable without", async () => {
    t = await twoFactorInstance("sqlite", { allowPasswordless: true });
    const browser = await signedUp(t, "pwless@example.com");
    expect((await browser.post("/two-factor/enable", {})).json).toMatchObject({ code: "INVALID_PASSWORD" });
    const id = await userId(t, "pwless@example.com");
    await t.auth.$context.adapter.updateMany({ model: "account", where: [{ field: "userId", value: id }], update: { password: null } });
    const enabled = await browser.post<{ totpURI: string }>("/two-factor/enable", {});
    expect(enabled.status).toBe(200);
    expect((await browser.post("/two-factor/get-totp-uri", {})).status).toBe(200);
  });

  it("skipVerificationOnEnable: two-factor is on at enable, and the next sign-in is challenged", async () => {
    t = await twoFactorInstance("sqlite", { skipVerificationOnEnable: true });
    const browser = await signedUp(t, "skip@example.com");
    const enabled = await browser.post<{ totpURI: string }>("/two-factor/enable", { password: PASSWORD });
    expect(enabled.status).toBe(200);
    expect((await browser.get<{ user: { twoFactorEnabled: boolean } }>("/get-session")).json!.user.twoFactorEnabled).toBe(true);
    const again = await browser.post("/two-factor/enable", { password: PASSWORD });
    expect(again.json).toMatchObject({ code: "TOTP_ALREADY_ENABLED" });
    const challenge = await challenged(t, "skip@example.com");
    const secret = await storedSecret(t, await userId(t, "skip@example.com"));
    expect((await challenge.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }) })).status).toBe(200);
  });

  it("totpOptions digits 8 and period 60 reach the URI and the check", async () => {
    t = await twoFactorInstance("sqlite", { totpOptions: { digits: 8, period: 60 } });
    const { secret } = await enrolled(t, "eight@example.com", { digits: 8, period: 60 });
    const browser = await challenged(t, "eight@example.com");
    expect((await browser.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 60 }) })).status).toBe(401);
    expect((await browser.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 8, period: 60 }) })).status).toBe(200);
  });
});
