import { lastLoginMethod } from "@latchkey/last-login-method";
import { testAuth } from "@latchkey/test-support";
import { describe, expect, it } from "vitest";
import { magicLink } from "../src/index.ts";
import { client, requestLink, type Outbox } from "./instance.ts";

describe("with @latchkey/last-login-method", () => {
  it('records "magic-link" for a link sign-in, in the cookie and the user column', async () => {
    const outbox: Outbox = [];
    const t = await testAuth(
      {
        emailAndPassword: { enabled: true },
        plugins: [magicLink({ sendMagicLink: (m) => void outbox.push(m) }), lastLoginMethod({ storeInDatabase: true })],
      },
      { db: "sqlite" },
    );
    try {
      const browser = client(t.auth);
      const mail = await requestLink(browser, outbox, { email: "last@example.com" });
      const answer = await browser.get<{ user: { id: string } }>(`/magic-link/verify?token=${mail.token}`);
      const cookie = answer.response.headers.getSetCookie().find((c) => c.startsWith("better-auth.last_used_login_method="));
      expect(cookie).toMatch(/^better-auth\.last_used_login_method=magic-link;/);
      const user = await t.auth.$context.internalAdapter.findUserById(answer.json!.user.id);
      expect((user as { lastLoginMethod?: string } | null)?.lastLoginMethod).toBe("magic-link");
    } finally {
      await t.close();
    }
  });
});
