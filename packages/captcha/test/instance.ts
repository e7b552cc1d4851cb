import type { EmailLinkData } from "@latchkey/core";
import { testAuth, type DatabaseKind, type TestAuth } from "@latchkey/test-support";
import { captcha, type CaptchaOptions } from "../src/index.ts";

/** Mails the instance would have sent. */
export type Outbox = EmailLinkData[];

/** An instance with email/password, password-reset mail into `outbox`, and `captcha(options)`. */
export async function captchaInstance(
  options: CaptchaOptions,
  db: DatabaseKind = "sqlite",
): Promise<TestAuth & { outbox: Outbox }> {
  const outbox: Outbox = [];
  const t = await testAuth(
    {
      emailAndPassword: {
        enabled: true,
        sendResetPassword: async (data) => {
          outbox.push(data);
        },
      },
      plugins: [captcha(options)],
    },
    { db },
  );
  return { ...t, outbox };
}

export const PASSWORD = "correct horse battery";
export const signUpBody = (n: string): Record<string, string> => ({
  email: `user-${n}@example.com`,
  password: PASSWORD,
  name: `User ${n}`,
});
