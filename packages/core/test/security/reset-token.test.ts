import { describe, expect, it } from "vitest";
import { createOutbox } from "../support/outbox.ts";
import { testInstance } from "../support/instance.ts";

const ada = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };

async function setup() {
  const outbox = createOutbox();
  const t = testInstance({
    logger: { disabled: true },
    emailAndPassword: { enabled: true, sendResetPassword: outbox.sendResetPassword },
  });
  await t.post("/sign-up/email", ada);
  const requestToken = async (): Promise<string> => {
    await t.post("/request-password-reset", { email: ada.email });
    return outbox.last("reset").token;
  };
  const reset = (token: string, newPassword = "a brand new password") =>
    t.post("/reset-password", { token, newPassword });
  const signIn = (password: string) => t.post("/sign-in/email", { email: ada.email, password });
  return { ...t, outbox, requestToken, reset, signIn };
}

/** Everything a client sees of a response except timing-dependent headers. */
async function visible(res: Response) {
  const headers = [...res.headers].filter(([name]) => name !== "date");
  return { status: res.status, headers, body: await res.text() };
}

describe("reset tokens: replay", () => {
  it("redeems a token once; the replay answers 400 INVALID_TOKEN and changes nothing", async () => {
    const t = await setup();
    const token = await t.requestToken();
    expect((await t.reset(token, "first new password")).status).toBe(200);
    const replay = await t.reset(token, "second new password");
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
    expect((await t.signIn("first new password")).status).toBe(200);
    expect((await t.signIn("second new password")).status).toBe(401);
  });

  it("a spent token no longer passes the link check either", async () => {
    const t = await setup();
    const token = await t.requestToken();
    await t.reset(token);
    const res = await t.request(`/reset-password/${token}?callbackURL=/reset`);
    expect(res.headers.get("location")).toBe("http://localhost:3000/reset?error=INVALID_TOKEN");
  });
});

describe("reset tokens: expiry", () => {
  it("refuses an expired token and removes it", async () => {
    const t = await setup();
    const token = await t.requestToken();
    t.store.verification![0]!.expiresAt = new Date(Date.now() - 1);
    const res = await t.reset(token);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "INVALID_TOKEN" });
    expect(t.count("verification")).toBe(0);
    expect((await t.signIn(ada.password)).status).toBe(200);
  });

  it("a token is bound to its purpose: the same row under another prefix is not a reset token", async () => {
    const t = await setup();
    const token = await t.requestToken();
    t.store.verification![0]!.identifier = `delete-account-${token}`;
    expect((await t.reset(token)).status).toBe(400);
  });
});

describe("reset tokens: concurrent redemption", () => {
  it("of 20 simultaneous redemptions of one token exactly one succeeds, and its password is the one set", async () => {
    const t = await setup();
    const token = await t.requestToken();
    const passwords = Array.from({ length: 20 }, (_, i) => `concurrent password ${i}`);
    const responses = await Promise.all(passwords.map((p) => t.reset(token, p)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const res of responses.filter((r) => r.status === 400)) {
      expect(await res.json()).toMatchObject({ code: "INVALID_TOKEN" });
    }
    const winner = passwords[statuses.indexOf(200)]!;
    expect((await t.signIn(winner)).status).toBe(200);
    const loser = passwords[(statuses.indexOf(200) + 1) % 20]!;
    expect((await t.signIn(loser)).status).toBe(401);
  });
});

describe("reset requests: enumeration", () => {
  it("answers a known and an unknown address identically, byte for byte", async () => {
    const t = await setup();
    const known = await visible(await t.post("/request-password-reset", { email: ada.email }));
    const unknown = await visible(await t.post("/request-password-reset", { email: "nobody@example.com" }));
    expect(unknown).toEqual(known);
    expect(t.outbox.mails.map((m) => m.to)).toEqual([ada.email]);
    expect(t.count("verification")).toBe(1);
  });

  it("takes about as long for both, even with a slow mail sender", async () => {
    const slowSender = async (): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 150));
    };
    const t = testInstance({
      logger: { disabled: true },
      emailAndPassword: { enabled: true, sendResetPassword: slowSender },
    });
    await t.post("/sign-up/email", ada);
    const time = async (email: string): Promise<number> => {
      const start = Date.now();
      await t.post("/request-password-reset", { email });
      return Date.now() - start;
    };
    const known = await time(ada.email);
    const unknown = await time("nobody@example.com");
    expect(unknown).toBeGreaterThanOrEqual(490);
    expect(known).toBeGreaterThanOrEqual(490);
    expect(Math.abs(known - unknown)).toBeLessThan(150);
  });

  it("a malformed address is a validation error, the same for any input", async () => {
    const t = await setup();
    const res = await t.post("/request-password-reset", { email: "ada@" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "VALIDATION_ERROR",
      message: "[body.email] Invalid email address",
    });
  });
});
