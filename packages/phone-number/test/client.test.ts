import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { browserFetch, CookieJar } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phoneNumberClient } from "../src/client.ts";
import { PASSWORD, phoneInstance, type PhoneInstance } from "./instance.ts";

let t: PhoneInstance;
beforeAll(async () => {
  t = await phoneInstance("sqlite");
});
afterAll(() => t.close());

function browserClient() {
  const jar = new CookieJar();
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: browserFetch((request) => t.auth.handler(request), jar),
    plugins: [phoneNumberClient()],
  });
}

describe("phoneNumberClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(phoneNumberClient()).toSatisfy((p: ClientPlugin) => p.id === "phone-number");
  });

  it("sends and verifies a code, resets the password by code and signs in by number", async () => {
    const client = browserClient();
    const phone = "+15555552001";
    expect((await client.phoneNumber.sendOtp({ phoneNumber: phone })).data).toEqual({ message: "code sent" });
    const verified = await client.phoneNumber.verify({ phoneNumber: phone, code: t.sms.last(phone) });
    expect(verified.data).toMatchObject({
      status: true,
      user: { phoneNumber: phone, phoneNumberVerified: true },
    });
    expect((await client.getSession()).data?.user.id).toBe(verified.data?.user.id);
    expect((await client.phoneNumber.requestPasswordReset({ phoneNumber: phone })).data).toEqual({
      status: true,
    });
    const reset = await client.phoneNumber.resetPassword({
      otp: t.sms.last(phone, "reset"),
      phoneNumber: phone,
      newPassword: PASSWORD,
    });
    expect(reset.data).toEqual({ status: true });
    const signedIn = await browserClient().signIn.phoneNumber({ phoneNumber: phone, password: PASSWORD });
    expect(signedIn.data?.user.id).toBe(verified.data?.user.id);
    const wrong = await browserClient().signIn.phoneNumber({ phoneNumber: phone, password: "not it at all" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_PHONE_NUMBER_OR_PASSWORD" });
  });
});
