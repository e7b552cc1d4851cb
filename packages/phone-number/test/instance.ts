import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { LatchkeyOptions } from "@latchkey/core";
import { phoneNumber, type PhoneNumberOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";

/** The codes the instance "sent", newest last, by kind. */
export interface SmsOutbox {
  otp: Array<{ phoneNumber: string; code: string }>;
  reset: Array<{ phoneNumber: string; code: string }>;
  /** The newest code sent to `phoneNumber`. */
  last(phoneNumber: string, kind?: "otp" | "reset"): string;
}

export function smsOutbox(): SmsOutbox {
  const outbox: SmsOutbox = {
    otp: [],
    reset: [],
    last(phoneNumber, kind = "otp") {
      const found = outbox[kind].filter((m) => m.phoneNumber === phoneNumber).at(-1);
      if (!found) throw new Error(`no ${kind} code sent to ${phoneNumber}`);
      return found.code;
    },
  };
  return outbox;
}

export interface PhoneInstance extends TestAuth {
  sms: SmsOutbox;
}

/** An instance with email/password and `phoneNumber(options)` sending into an outbox. */
export async function phoneInstance(
  db: DatabaseKind,
  options: PhoneNumberOptions = {},
  extra: Partial<LatchkeyOptions> = {},
): Promise<PhoneInstance> {
  const sms = smsOutbox();
  const t = await testAuth(
    {
      emailAndPassword: { enabled: true },
      ...extra,
      plugins: [
        phoneNumber({
          sendOTP: (m) => void sms.otp.push(m),
          sendPasswordResetOTP: (m) => void sms.reset.push(m),
          signUpOnVerification: { getTempEmail: (phone) => `${phone.replace(/\D/g, "")}@phone.example.com` },
          ...options,
        }),
      ],
    },
    { db },
  );
  return { ...t, sms };
}

/** Sends a code to `phone` and verifies it through `browser` (signing the number up). */
export async function verifyNumber(
  t: PhoneInstance,
  browser: TestClient,
  phone: string,
  body: Record<string, unknown> = {},
) {
  const sent = await browser.post("/phone-number/send-otp", { phoneNumber: phone });
  if (sent.status !== 200) throw new Error(`send-otp failed: ${sent.status} ${sent.text}`);
  return browser.post<{
    status: boolean;
    token: string | null;
    user: { id: string; phoneNumber: string; phoneNumberVerified: boolean };
  }>("/phone-number/verify", { phoneNumber: phone, code: t.sms.last(phone), ...body });
}

export { client };
