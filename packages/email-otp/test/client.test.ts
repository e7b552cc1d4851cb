import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { handlerFetch, TEST_BASE_URL } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOTPClient } from "../src/client.ts";
import { otpInstance, type OTPInstance } from "./instance.ts";

let t: OTPInstance;
beforeAll(async () => {
  t = await otpInstance("sqlite", { changeEmail: { enabled: true } });
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, with one browser's cookie jar. */
const browserClient = () =>
  createAuthClient({ baseURL: TEST_BASE_URL, fetch: handlerFetch(t.auth).fetch, plugins: [emailOTPClient()] });

describe("emailOTPClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(emailOTPClient()).toSatisfy((p: ClientPlugin) => p.id === "email-otp");
  });

  it("sign-in, check, verify, password reset and email change through the reference's method names", async () => {
    const client = browserClient();
    expect(await client.emailOtp.sendVerificationOtp({ email: "client@example.com", type: "sign-in" })).toEqual({ data: { success: true }, error: null });
    const otp = t.outbox.at(-1)!.otp;
    const signed = await client.signIn.emailOtp({ email: "client@example.com", otp, name: "Client" });
    expect(signed.data?.user).toMatchObject({ email: "client@example.com", emailVerified: true });
    expect((await client.getSession()).data?.user.email).toBe("client@example.com");

    await client.emailOtp.sendVerificationOtp({ email: "client@example.com", type: "email-verification" });
    const code = t.outbox.at(-1)!.otp;
    expect((await client.emailOtp.checkVerificationOtp({ email: "client@example.com", type: "email-verification", otp: code })).data).toEqual({ success: true });
    expect((await client.emailOtp.verifyEmail({ email: "client@example.com", otp: code })).data).toMatchObject({ status: true, token: null });

    expect((await client.forgetPassword.emailOtp({ email: "client@example.com" })).data).toEqual({ success: true });
    expect((await client.emailOtp.requestPasswordReset({ email: "client@example.com" })).data).toEqual({ success: true });
    const reset = t.outbox.at(-1)!.otp;
    expect((await client.emailOtp.resetPassword({ email: "client@example.com", otp: reset, password: "client-password-1" })).data).toEqual({ success: true });

    expect((await client.emailOtp.requestEmailChange({ newEmail: "moved@example.com" })).data).toEqual({ success: true });
    const change = t.outbox.at(-1)!.otp;
    expect((await client.emailOtp.changeEmail({ newEmail: "moved@example.com", otp: change })).data).toEqual({ success: true });
    expect((await client.getSession()).data?.user.email).toBe("moved@example.com");
  });

  it("a wrong code is an error result with the plugin's code", async () => {
    const refused = await browserClient().signIn.emailOtp({ email: "none@example.com", otp: "000000" });
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({ status: 400, code: "INVALID_OTP", message: "Invalid OTP" });
  });
});
