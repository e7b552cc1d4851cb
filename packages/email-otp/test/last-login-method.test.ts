import { lastLoginMethod } from "@latchkey/last-login-method";
import { testAuth } from "@latchkey/test-support";
import { describe, expect, it } from "vitest";
import { emailOTP } from "../src/index.ts";
import { client, codeFor, type Outbox } from "./instance.ts";

describe("with @latchkey/last-login-method", () => {
  it('records "email-otp" for a code sign-in, in the cookie and the user column (spec: Plugins)', async () => {
    const outbox: Outbox = [];
    const t = await testAuth(
      {
        emailAndPassword: { enabled: true },
        plugins: [emailOTP({ sendVerificationOTP: (m) => void outbox.push(m) }), lastLoginMethod({ storeInDatabase: true })],
      },
      { db: "sqlite" },
    );
    try {
      const browser = client(t.auth);
      const otp = await codeFor(browser, { ...t, outbox }, "last@example.com", "sign-in");
      const answer = await browser.post<{ user: { id: string } }>("/sign-in/email-otp", { email: "last@example.com", otp });
      const cookie = answer.response.headers.getSetCookie().find((c) => c.startsWith("better-auth.last_used_login_method="));
      expect(cookie).toMatch(/^better-auth\.last_used_login_method=email-otp;/);
      const user = await t.auth.$context.internalAdapter.findUserById(answer.json!.user.id);
      expect((user as { lastLoginMethod?: string } | null)?.lastLoginMethod).toBe("email-otp");
    } finally {
      await t.close();
    }
  });
});
