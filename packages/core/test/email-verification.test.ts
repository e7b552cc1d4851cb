import { describe, expect, it, vi } from "vitest";
import { signJWT, type LatchkeyOptions, type User } from "../src/index.ts";
import { createEmailVerificationToken } from "../src/mail/email-verification-token.ts";
import { createOutbox, jwtParts, linkPath } from "./support/outbox.ts";
import { BASE, cookiePair, findCookie, SECRET, testInstance } from "./support/instance.ts";

const ada = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };
const SESSION = "better-auth.session_token";

/** An instance whose verification mails land in an outbox. */
function setup(
  options: Partial<LatchkeyOptions> = {},
  verification: LatchkeyOptions["emailVerification"] = {},
) {
  const outbox = createOutbox();
  const t = testInstance({
    ...options,
    emailVerification: { sendVerificationEmail: outbox.sendVerificationEmail, ...verification },
  });
  const user = (email = ada.email) => t.store.user!.find((u) => u.email === email)!;
  return { ...t, outbox, user };
}

describe("verification mail on sign-up and sign-in", () => {
  it("mails a link with the reference's token and URL after sign-up when verification is required", async () => {
    const t = setup({ emailAndPassword: { enabled: true, requireEmailVerification: true } });
    const res = await t.post("/sign-up/email", { ...ada, callbackURL: "/welcome?x=1" });
    expect(res.status).toBe(200);
    expect((await res.json()).token).toBeNull();
    const mail = t.outbox.last("verification");
    expect(mail.to).toBe(ada.email);
    expect(mail.url).toBe(`${BASE}/api/auth/verify-email?token=${mail.token}&callbackURL=%2Fwelcome%3Fx%3D1`);
    const { header, claims } = jwtParts(mail.token);
    expect(header).toEqual({ alg: "HS256" });
    expect(Object.keys(claims)).toEqual(["email", "iat", "exp"]);
    expect(claims.email).toBe(ada.email);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
  });

  it("follows sendOnSignUp over requireEmailVerification, and expiresIn", async () => {
    const off = setup(
      { emailAndPassword: { enabled: true, requireEmailVerification: true } },
      { sendOnSignUp: false },
    );
    await off.post("/sign-up/email", ada);
    expect(off.outbox.mails).toHaveLength(0);
    const on = setup({}, { sendOnSignUp: true, expiresIn: 120 });
    await on.post("/sign-up/email", ada);
    const { claims } = jwtParts(on.outbox.last("verification").token);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(120);
    expect(on.outbox.last("verification").url).toContain("&callbackURL=%2F");
  });

  it("refuses an unverified sign-in with 403 and mails only with sendOnSignIn and the right password", async () => {
    const quiet = setup(
      { emailAndPassword: { enabled: true, requireEmailVerification: true } },
      { sendOnSignUp: false },
    );
    await quiet.post("/sign-up/email", ada);
    const refused = await quiet.post("/sign-in/email", { email: ada.email, password: ada.password });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect(quiet.outbox.mails).toHaveLength(0);

    const t = setup(
      { emailAndPassword: { enabled: true, requireEmailVerification: true } },
      { sendOnSignUp: false, sendOnSignIn: true },
    );
    await t.post("/sign-up/email", ada);
    expect((await t.post("/sign-in/email", { email: ada.email, password: "wrong password!" })).status).toBe(
      401,
    );
    expect(t.outbox.mails).toHaveLength(0);
    expect((await t.post("/sign-in/email", { email: ada.email, password: ada.password })).status).toBe(403);
    expect(t.outbox.last("verification").to).toBe(ada.email);
  });

  it("still signs up when the sender fails (the failure is logged, not answered)", async () => {
    const t = testInstance({
      logger: { disabled: true },
      emailAndPassword: { enabled: true, requireEmailVerification: true },
      emailVerification: { sendVerificationEmail: () => Promise.reject(new Error("smtp down")) },
    });
    expect((await t.post("/sign-up/email", ada)).status).toBe(200);
  });
});

describe("GET /verify-email", () => {
  it("verifies, runs the hooks once, and answers the same when followed again", async () => {
    const before = vi.fn(async (_user: User) => {});
    const after = vi.fn(async (_user: User) => {});
    const t = setup(
      {},
      { sendOnSignUp: true, beforeEmailVerification: before, afterEmailVerification: after },
    );
    await t.post("/sign-up/email", ada);
    const path = linkPath(t.outbox.last("verification").url);
    const res = await t.request(path.replace(/&callbackURL=[^&]*/, ""));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true, user: null });
    expect(t.user().emailVerified).toBe(true);
    expect(before).toHaveBeenCalledTimes(1);
    expect(before.mock.calls[0]![0]).toMatchObject({ email: ada.email, emailVerified: false });
    expect(after.mock.calls[0]![0]).toMatchObject({ email: ada.email, emailVerified: true });
    const again = await t.request(path.replace(/&callbackURL=[^&]*/, ""));
    expect(await again.json()).toEqual({ status: true, user: null });
    expect(before).toHaveBeenCalledTimes(1);
    expect(after).toHaveBeenCalledTimes(1);
  });

  it("redirects to the callbackURL on success", async () => {
    const t = setup({}, { sendOnSignUp: true });
    await t.post("/sign-up/email", { ...ada, callbackURL: "/done" });
    const res = await t.request(linkPath(t.outbox.last("verification").url));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/done");
    expect(await res.text()).toBe("");
  });

  it("signs the user in with autoSignInAfterVerification", async () => {
    const t = setup(
      { emailAndPassword: { enabled: true, requireEmailVerification: true } },
      { autoSignInAfterVerification: true },
    );
    await t.post("/sign-up/email", ada);
    const res = await t.request(linkPath(t.outbox.last("verification").url));
    expect(res.status).toBe(302);
    const cookie = cookiePair(findCookie(res, SESSION)!);
    const session = await (await t.request("/get-session", { headers: { cookie } })).json();
    expect(session.user).toMatchObject({ email: ada.email, emailVerified: true });
  });

  it("answers 401 with the reference's codes, or redirects with ?error= when a callbackURL is given", async () => {
    const t = setup();
    await t.post("/sign-up/email", ada);
    const cases: Array<[string, string]> = [
      ["not-a-jwt", "INVALID_TOKEN"],
      [
        await createEmailVerificationToken("another-secret-of-enough-length-0123456789", ada.email),
        "INVALID_TOKEN",
      ],
      [await createEmailVerificationToken(SECRET, ada.email, undefined, -10), "TOKEN_EXPIRED"],
      [await createEmailVerificationToken(SECRET, "nobody@example.com"), "USER_NOT_FOUND"],
      // Signed with the secret but not a verification token (the reference: 500).
      [await signJWT({ session: { id: "x" } }, SECRET), "INVALID_TOKEN"],
    ];
    for (const [token, code] of cases) {
      const json = await t.request(`/verify-email?token=${token}`);
      expect(json.status, code).toBe(401);
      expect(await json.json()).toMatchObject({ code });
      const redirect = await t.request(
        `/verify-email?token=${token}&callbackURL=${encodeURIComponent("/cb?a=1")}`,
      );
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get("location")).toBe(`/cb?a=1&error=${code}`);
    }
    const absolute = await t.request(
      `/verify-email?token=x&callbackURL=${encodeURIComponent("http://localhost:3000")}`,
    );
    expect(absolute.headers.get("location")).toBe("http://localhost:3000/?error=INVALID_TOKEN");
  });

  it("validates the query and, with origin checks on, the callbackURL", async () => {
    const t = setup({ advanced: { disableOriginCheck: false } });
    const missing = await t.request("/verify-email");
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      code: "VALIDATION_ERROR",
      message: "[query.token] Invalid input: expected string, received undefined",
    });
    const evil = await t.request(
      `/verify-email?token=x&callbackURL=${encodeURIComponent("https://evil.example/x")}`,
    );
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ code: "INVALID_CALLBACK_URL" });
  });
});

describe("POST /send-verification-email", () => {
  it("is refused without a sender", async () => {
    const t = testInstance({ logger: { disabled: true } });
    const res = await t.post("/send-verification-email", { email: ada.email });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "VERIFICATION_EMAIL_NOT_ENABLED" });
  });

  it("answers anonymous callers the same after the same minimum time, mailing only unverified users", async () => {
    const t = setup();
    await t.post("/sign-up/email", ada);
    for (const email of ["nobody@example.com", ada.email]) {
      const start = Date.now();
      const res = await t.post("/send-verification-email", { email, callbackURL: "/v" });
      expect(Date.now() - start).toBeGreaterThanOrEqual(490);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: true });
    }
    expect(t.outbox.mails.map((m) => m.to)).toEqual([ada.email]);
    expect(t.outbox.last("verification").url).toContain("&callbackURL=%2Fv");
    t.user().emailVerified = true;
    await t.post("/send-verification-email", { email: ada.email });
    expect(t.outbox.mails).toHaveLength(1);
  });

  it("holds a signed-in caller to their own, unverified address", async () => {
    const t = setup();
    const signUp = await t.post("/sign-up/email", ada);
    const cookie = cookiePair(findCookie(signUp, SESSION)!);
    const other = await t.post("/send-verification-email", { email: "other@example.com" }, { cookie });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ code: "EMAIL_MISMATCH", message: "Email mismatch" });
    const own = await t.post("/send-verification-email", { email: "ADA@example.com" }, { cookie });
    expect(await own.json()).toEqual({ status: true });
    expect(t.outbox.mails).toHaveLength(1);
    t.user().emailVerified = true;
    const verified = await t.post("/send-verification-email", { email: ada.email }, { cookie });
    expect(await verified.json()).toMatchObject({ code: "EMAIL_ALREADY_VERIFIED" });
  });

  it("validates the email", async () => {
    const t = setup();
    const res = await t.post("/send-verification-email", { email: "not-an-email" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "VALIDATION_ERROR",
      message: "[body.email] Invalid email address",
    });
  });
});

describe("sign-up in the modes that hide a taken email", () => {
  it("answers a duplicate like a real sign-up (synthetic user, no session, no mail) and tells the owner", async () => {
    const onExistingUserSignUp = vi.fn(async (_data: { user: User }) => {});
    const t = setup({
      emailAndPassword: { enabled: true, requireEmailVerification: true, onExistingUserSignUp },
    });
    const real = await (await t.post("/sign-up/email", ada)).json();
    const dup = await t.post("/sign-up/email", { ...ada, name: "Mallory", email: "ADA@example.com" });
    expect(dup.status).toBe(200);
    expect(findCookie(dup, SESSION)).toBeUndefined();
    const fake = await dup.json();
    expect(fake.token).toBeNull();
    expect(Object.keys(fake.user).sort()).toEqual(Object.keys(real.user).sort());
    expect(fake.user).toMatchObject({ name: "Mallory", email: ada.email, emailVerified: false, image: null });
    expect(fake.user.id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(fake.user.id).not.toBe(real.user.id);
    expect(t.count("user")).toBe(1);
    expect(t.outbox.mails).toHaveLength(1); // only the real sign-up's
    expect(onExistingUserSignUp.mock.calls[0]![0]).toMatchObject({ user: { id: real.user.id } });
  });

  it("with autoSignIn: false as well, and shapes the user with customSyntheticUser and field defaults", async () => {
    const t = setup({
      emailAndPassword: {
        enabled: true,
        autoSignIn: false,
        customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
          ...coreFields,
          ...additionalFields,
          role: "user",
          id,
        }),
      },
      user: {
        additionalFields: {
          role: { type: "string", required: false },
          plan: { type: "string", defaultValue: "free" },
        },
      },
    });
    await t.post("/sign-up/email", ada);
    const fake = await (await t.post("/sign-up/email", ada)).json();
    expect(fake.token).toBeNull();
    expect(fake.user).toMatchObject({ role: "user", plan: "free", email: ada.email });
  });

  it("without those modes a duplicate is still 422", async () => {
    const t = setup();
    await t.post("/sign-up/email", ada);
    const dup = await t.post("/sign-up/email", ada);
    expect(dup.status).toBe(422);
    expect(await dup.json()).toMatchObject({ code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
  });
});
