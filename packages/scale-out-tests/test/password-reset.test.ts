// Issue 5 §3: verification tokens (password reset) are single-use across both nodes under
// concurrent redemption.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cluster, STORAGE_MODES } from "./support/clusters.ts";
import { newUser, signIn, signUp } from "./support/flows.ts";
import { call } from "./support/http.ts";
import { PUBLIC_ORIGIN } from "./support/node-config.ts";

const REDEMPTIONS = 20;
const INVALID_TOKEN = { code: "INVALID_TOKEN", message: "Invalid token" };
const BAD_CREDENTIALS = { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" };

describe.each(STORAGE_MODES)(
  "password reset tokens across two nodes, verification values in %s",
  (storage) => {
    it(`${REDEMPTIONS} concurrent redemptions of one token over A and B: exactly one succeeds`, async () => {
      const { a, b, resetToken } = cluster(storage);
      const user = newUser();
      await signUp(a, user);
      const requested = await call(a, "/request-password-reset", { json: { email: user.email } });
      expect(requested.status).toBe(200);
      const token = await resetToken(user.email);

      // Each redemption asks for its own password, so the stored hash shows who won.
      const passwords = Array.from(
        { length: REDEMPTIONS },
        (_, i) => `new-password-${i}-${randomBytes(4).toString("hex")}`,
      );
      const answers = await Promise.all(
        passwords.map((newPassword, i) =>
          call(i % 2 ? b : a, "/reset-password", { json: { token, newPassword } }),
        ),
      );
      const won = answers.flatMap((answer, i) => (answer.status === 200 ? [i] : []));
      expect(
        won,
        answers.map((x, i) => `${i % 2 ? "B" : "A"} ${x.status} ${x.text}`).join("\n"),
      ).toHaveLength(1);
      const winner = won[0]!;
      expect(answers[winner]!.body).toEqual({ status: true });
      for (const [i, answer] of answers.entries()) {
        if (i === winner) continue;
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual(INVALID_TOKEN);
      }

      // The winner's password works on both nodes; the old one and every loser's work on neither.
      for (const node of [a, b]) {
        await signIn(node, { email: user.email, password: passwords[winner]! });
        for (const password of [user.password, passwords[(winner + 1) % REDEMPTIONS]!]) {
          const refused = await call(node, "/sign-in/email", { json: { email: user.email, password } });
          expect(refused.status).toBe(401);
          expect(refused.body).toEqual(BAD_CREDENTIALS);
        }
        // A replay after the race is refused too.
        const replay = await call(node, "/reset-password", {
          json: { token, newPassword: "yet-another-password" },
        });
        expect(replay.body).toEqual(INVALID_TOKEN);
      }
    });

    it("a token mailed by B opens on A (the link check does not spend it) and is then redeemed on A", async () => {
      const { a, b, resetToken } = cluster(storage);
      const user = newUser();
      await signUp(b, user);
      expect((await call(b, "/request-password-reset", { json: { email: user.email } })).status).toBe(200);
      const token = await resetToken(user.email);
      const link = await fetch(`${a.origin}/api/auth/reset-password/${token}?callbackURL=/reset`, {
        redirect: "manual",
      });
      expect(link.status).toBe(302);
      const location = new URL(link.headers.get("location") ?? "", PUBLIC_ORIGIN);
      expect(location.pathname).toBe("/reset");
      // Compared as a boolean, so a failure never prints the token.
      expect(location.searchParams.get("token") === token, "the link carries the mailed token").toBe(true);
      const redeemed = await call(a, "/reset-password", { json: { token, newPassword: "chosen-on-node-a" } });
      expect(redeemed.status).toBe(200);
      await signIn(b, { email: user.email, password: "chosen-on-node-a" });
    });
  },
);
