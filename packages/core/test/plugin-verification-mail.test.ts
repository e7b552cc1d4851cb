import { describe, expect, it } from "vitest";
import { endpoint, mailVerificationOnSignIn, type User } from "../src/index.ts";
import { testInstance } from "./support/instance.ts";
import { createOutbox } from "./support/outbox.ts";

// A plugin sign-in route (username, phone number) refuses an unverified user the way core's
// sign-in does, and mails a fresh link when `emailVerification.sendOnSignIn` says so.
describe("mailVerificationOnSignIn from a plugin route", () => {
  const mailingRoute = endpoint("/test/unverified-sign-in", { method: "POST" }, async (ctx) => {
    const user = { id: "u1", email: "ada@example.com", emailVerified: false, name: "Ada" } as User;
    await mailVerificationOnSignIn(ctx, user, "/after");
    return { mailed: true };
  });
  const instance = (sendOnSignIn: boolean) => {
    const outbox = createOutbox();
    const t = testInstance({
      emailVerification: { sendOnSignIn, sendVerificationEmail: outbox.sendVerificationEmail },
      plugins: [{ id: "mailing-test", endpoints: { mailingRoute } }],
    });
    return { ...t, outbox };
  };

  it("mails a verification link when sendOnSignIn", async () => {
    const t = instance(true);
    expect((await t.post("/test/unverified-sign-in", {})).status).toBe(200);
    expect(t.outbox.mails).toHaveLength(1);
    expect(t.outbox.mails[0]).toMatchObject({ kind: "verification", to: "ada@example.com" });
    expect(t.outbox.mails[0]!.url).toContain("callbackURL=%2Fafter");
  });

  it("mails nothing otherwise", async () => {
    const t = instance(false);
    expect((await t.post("/test/unverified-sign-in", {})).status).toBe(200);
    expect(t.outbox.mails).toEqual([]);
  });
});
