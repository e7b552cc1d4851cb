import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { LatchkeyOptions } from "@latchkey/core";
import { emailOTP, type EmailOTPOptions, type OTPType } from "../src/index.ts";

/** The codes `sendVerificationOTP` was asked to mail, newest last. */
export type Outbox = Array<{ email: string; otp: string; type: OTPType }>;

export type OTPInstance = TestAuth & { outbox: Outbox };

export const PASSWORD = "password-1234";

/** An instance with `emailOTP(options)` whose mails land in `outbox`. */
export async function otpInstance(
  db: DatabaseKind,
  options: Partial<EmailOTPOptions> = {},
  extra: Partial<LatchkeyOptions> = {},
): Promise<OTPInstance> {
  const outbox: Outbox = [];
  const t = await testAuth(
    {
      emailAndPassword: { enabled: true },
      plugins: [emailOTP({ sendVerificationOTP: (data) => void outbox.push(data), ...options })],
      ...extra,
    },
    { db },
  );
  return { ...t, outbox };
}

/** Asks for a code and returns it. */
export async function codeFor(browser: TestClient, t: OTPInstance, email: string, type: OTPType): Promise<string> {
  const answer = await browser.post("/email-otp/send-verification-otp", { email, type });
  if (answer.status !== 200) throw new Error(`send failed: ${answer.status} ${answer.text}`);
  const mail = t.outbox.at(-1);
  if (!mail || mail.email !== email.toLowerCase() || mail.type !== type) throw new Error("no mail");
  return mail.otp;
}

/** Signs a user up with a password (email unverified). */
export async function signUp(browser: TestClient, email: string): Promise<string> {
  const answer = await browser.post<{ user: { id: string } }>("/sign-up/email", { email, password: PASSWORD, name: "User" });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status}`);
  return answer.json!.user.id;
}

/** A wrong code of the right shape. */
export const wrong = (otp: string): string => (otp === "000000" ? "111111" : "000000");

/** The verification rows, as stored. */
export const rows = (t: TestAuth) =>
  t.auth.$context.adapter.findMany<{ identifier: string; value: string; expiresAt: Date }>({ model: "verification" });

export { client };
