import { createAuthClient } from "@latchkey/client";
import { client, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { twoFactorClient, type TwoFactorClientOptions } from "../src/client.ts";
import { Outbox, PASSWORD, storedSecret, totpCode, twoFactorInstance, userId } from "./instance.ts";

const outbox = new Outbox();
let t: TestAuth;
beforeAll(async () => {
  t = await twoFactorInstance("sqlite", { otpOptions: { sendOTP: outbox.send } });
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, through one test-kit browser (its cookie jar). */
function browserClient(options?: TwoFactorClientOptions) {
  const browser = client(t.auth);
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: async (url, init) => (await browser.request(String(url), init)).response,
    plugins: [twoFactorClient(options)],
  });
}

describe("twoFactorClient", () => {
  it("enrolls, signs in through the redirect callback, and verifies with each method", async () => {
    const client = browserClient();
    await client.signUp.email({ email: "client@example.com", password: PASSWORD, name: "C" });
    const enabled = await client.twoFactor.enable({ password: PASSWORD });
    expect(enabled.data).toMatchObject({ method: "totp", totpURI: expect.stringMatching(/^otpauth:/) });
    const secret = await storedSecret(t, await userId(t, "client@example.com"));
    const verified = await client.twoFactor.verifyTotp({ code: totpCode(secret, { digits: 6, period: 30 }) });
    expect(verified.data?.user.twoFactorEnabled).toBe(true);
    expect((await client.twoFactor.getTotpUri({ password: PASSWORD })).data?.totpURI).toMatch(/^otpauth:/);
    const codes = (await client.twoFactor.generateBackupCodes({ password: PASSWORD })).data!.backupCodes;

    const redirects: string[][] = [];
    const other = browserClient({ onTwoFactorRedirect: ({ twoFactorMethods }) => void redirects.push(twoFactorMethods) });
    const signIn = await other.signIn.email({ email: "client@example.com", password: PASSWORD });
    expect(signIn.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect(redirects).toEqual([["totp", "otp"]]);
    expect((await other.twoFactor.sendOtp()).data).toEqual({ status: true });
    const wrong = await other.twoFactor.verifyOtp({ code: "abcdef" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_CODE", message: "Invalid code" });
    expect((await other.twoFactor.verifyOtp({ code: outbox.last("client@example.com") })).data?.user.email).toBe("client@example.com");
    expect((await other.getSession()).data?.user.email).toBe("client@example.com");

    const third = browserClient();
    await third.signIn.email({ email: "client@example.com", password: PASSWORD });
    expect((await third.twoFactor.verifyBackupCode({ code: codes[0]! })).data?.token).toBeTruthy();
    expect((await third.twoFactor.disable({ password: PASSWORD })).data).toEqual({ status: true });
  });
});
