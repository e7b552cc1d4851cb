import { describe, expect, it, vi } from "vitest";
import type { LatchkeyOptions } from "../src/index.ts";
import { createEmailVerificationToken } from "../src/mail/email-verification-token.ts";
import { createOutbox, jwtParts, linkPath } from "./support/outbox.ts";
import { cookiePair, findCookie, SECRET, testInstance } from "./support/instance.ts";

const ada = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };
const NEW = "ada.new@example.com";
const SESSION = "better-auth.session_token";

interface Setup {
  changeEmail?: Partial<NonNullable<NonNullable<LatchkeyOptions["user"]>["changeEmail"]>>;
  sender?: boolean;
  verified?: boolean;
  afterEmailVerification?: NonNullable<LatchkeyOptions["emailVerification"]>["afterEmailVerification"];
}

/** Ada signed up (and signed in), change-email enabled, mails in an outbox. */
async function setup({
  changeEmail = {},
  sender = true,
  verified = false,
  afterEmailVerification,
}: Setup = {}) {
  const outbox = createOutbox();
  const t = testInstance({
    logger: { disabled: true },
    user: { changeEmail: { enabled: true, ...changeEmail } },
    emailVerification: sender
      ? { sendVerificationEmail: outbox.sendVerificationEmail, afterEmailVerification }
      : {},
  });
  const signUp = await t.post("/sign-up/email", ada);
  const cookie = cookiePair(findCookie(signUp, SESSION)!);
  const user = () => t.store.user!.find((u) => u.name === "Ada")!;
  if (verified) user().emailVerified = true;
  const change = (newEmail: string, extra: Record<string, unknown> = {}, headers = { cookie }) =>
    t.post("/change-email", { newEmail, ...extra }, headers);
  return { ...t, outbox, cookie, user, change };
}

describe("POST /change-email: refusals", () => {
  it("needs a session, the feature, a different address and a usable flow", async () => {
    const off = testInstance();
    const signUp = await off.post("/sign-up/email", ada);
    const offCookie = cookiePair(findCookie(signUp, SESSION)!);
    expect((await off.post("/change-email", { newEmail: NEW })).status).toBe(401);
    const disabled = await off.post("/change-email", { newEmail: NEW }, { cookie: offCookie });
    expect(disabled.status).toBe(400);
    expect(await disabled.json()).toEqual({
      code: "CHANGE_EMAIL_DISABLED",
      message: "Change email is disabled",
    });

    const t = await setup({ sender: false });
    const same = await t.change("ADA@example.com");
    expect(same.status).toBe(400);
    expect(await same.json()).toEqual({ message: "Email is the same" });
    const noFlow = await t.change(NEW);
    expect(noFlow.status).toBe(400);
    expect(await noFlow.json()).toEqual({ message: "Verification email isn't enabled" });
    const invalid = await t.change("not-an-email");
    expect(await invalid.json()).toEqual({
      code: "VALIDATION_ERROR",
      message: "[body.newEmail] Invalid email address",
    });
  });

  it("answers a taken address like any other and changes or mails nothing", async () => {
    const t = await setup();
    await t.post("/sign-up/email", { ...ada, name: "Bob", email: NEW });
    const res = await t.change(NEW);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true });
    expect(t.outbox.mails).toHaveLength(0);
    expect(t.user().email).toBe(ada.email);
  });
});

describe("POST /change-email: flows", () => {
  it("default: mails the new address a link that applies the change, verifies it and signs in", async () => {
    const after = vi.fn(async () => {});
    const t = await setup({ afterEmailVerification: after });
    expect(await (await t.change("Ada.New@Example.com", { callbackURL: "/settings" })).json()).toEqual({
      status: true,
    });
    const mail = t.outbox.last("verification");
    expect(mail.to).toBe(NEW);
    expect(mail.url).toContain("&callbackURL=%2Fsettings");
    expect(jwtParts(mail.token).claims).toMatchObject({
      email: ada.email,
      updateTo: NEW,
      requestType: "change-email-verification",
    });
    expect(t.user().email).toBe(ada.email);

    // Followed in another browser (no session): applied, and a session is opened there.
    const res = await t.request(linkPath(mail.url).replace(/&callbackURL=[^&]*/, ""));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: true, user: { email: NEW, emailVerified: true } });
    expect(t.user()).toMatchObject({ email: NEW, emailVerified: true });
    expect(after).toHaveBeenCalledTimes(1);
    const cookie = cookiePair(findCookie(res, SESSION)!);
    expect((await (await t.request("/get-session", { headers: { cookie } })).json()).user.email).toBe(NEW);
    // The old address is gone: following the link again finds no user.
    const again = await t.request(linkPath(mail.url));
    expect(again.headers.get("location")).toBe("/settings?error=USER_NOT_FOUND");
  });

  it("with the owner's session, re-issues that session's cookie; another user's session is INVALID_USER", async () => {
    const t = await setup();
    await t.change(NEW);
    const path = linkPath(t.outbox.last("verification").url);
    const bob = await t.post("/sign-up/email", { ...ada, name: "Bob", email: "bob@example.com" });
    const bobCookie = cookiePair(findCookie(bob, SESSION)!);
    const refused = await t.request(path, { headers: { cookie: bobCookie } });
    expect(refused.headers.get("location")).toBe("/?error=INVALID_USER");
    const sessions = t.count("session");
    const res = await t.request(path, { headers: { cookie: t.cookie } });
    expect(res.status).toBe(302);
    expect(t.count("session")).toBe(sessions);
    expect(cookiePair(findCookie(res, SESSION)!)).toBe(t.cookie);
  });

  it("updateEmailWithoutVerification: an unverified user's email changes at once; the new address gets a plain link", async () => {
    const t = await setup({ changeEmail: { updateEmailWithoutVerification: true } });
    const res = await t.change(NEW);
    expect(await res.json()).toEqual({ status: true });
    expect(t.user()).toMatchObject({ email: NEW, emailVerified: false });
    expect(findCookie(res, SESSION)).toBeDefined();
    const mail = t.outbox.last("verification");
    expect(mail.to).toBe(NEW);
    expect(Object.keys(jwtParts(mail.token).claims)).toEqual(["email", "iat", "exp"]);
    await t.request(linkPath(mail.url));
    expect(t.user().emailVerified).toBe(true);
  });

  it("sendChangeEmailConfirmation: a verified user confirms from the old address, then verifies the new one", async () => {
    const outbox = createOutbox();
    const t = await setup({
      verified: true,
      changeEmail: { sendChangeEmailConfirmation: outbox.sendChangeEmailConfirmation },
    });
    expect(await (await t.change(NEW, { callbackURL: "/done" })).json()).toEqual({ status: true });
    const confirm = outbox.last("change-email");
    expect(confirm).toMatchObject({ to: ada.email, newEmail: NEW });
    expect(jwtParts(confirm.token).claims).toMatchObject({
      requestType: "change-email-confirmation",
      updateTo: NEW,
    });

    const step1 = await t.request(linkPath(confirm.url));
    expect(step1.status).toBe(302);
    expect(step1.headers.get("location")).toBe("/done");
    expect(t.user().email).toBe(ada.email);
    const verify = t.outbox.last("verification");
    expect(verify.to).toBe(NEW);
    expect(jwtParts(verify.token).claims).toMatchObject({
      requestType: "change-email-verification",
      updateTo: NEW,
    });

    await t.request(linkPath(verify.url), { headers: { cookie: t.cookie } });
    expect(t.user()).toMatchObject({ email: NEW, emailVerified: true });
  });

  it("legacy tokens (updateTo, no request type) change the email unverified and mail a plain link", async () => {
    const t = await setup();
    const token = await createEmailVerificationToken(SECRET, ada.email, NEW);
    const res = await t.request(`/verify-email?token=${token}`, { headers: { cookie: t.cookie } });
    expect(await res.json()).toMatchObject({ status: true, user: { email: NEW, emailVerified: false } });
    expect(t.outbox.last("verification").to).toBe(NEW);
  });

  it("refuses to apply a change to an address taken since the link was mailed (the reference: 500)", async () => {
    const t = await setup();
    await t.change(NEW);
    const path = linkPath(t.outbox.last("verification").url);
    await t.post("/sign-up/email", { ...ada, name: "Bob", email: NEW });
    const json = await t.request(path.replace(/&callbackURL=[^&]*/, ""));
    expect(json.status).toBe(422);
    expect(await json.json()).toMatchObject({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
    const redirect = await t.request(path);
    expect(redirect.headers.get("location")).toBe("/?error=USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    expect(t.user().email).toBe(ada.email);
    expect(t.store.user!.filter((u) => u.email === NEW)).toHaveLength(1);
  });
});
