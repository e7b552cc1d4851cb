import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import {
  challenged,
  client,
  enrolled,
  Outbox,
  PASSWORD,
  SESSION_COOKIE,
  signedUp,
  storedSecret,
  totpCode,
  TRUST_COOKIE,
  TWO_FACTOR_COOKIE,
  twoFactorInstance,
  userId,
  viewBackupCodes,
} from "./instance.ts";

const outbox = new Outbox();
let t: TestAuth;
beforeAll(async () => {
  t = await twoFactorInstance("sqlite", { issuer: "Latchkey Test", otpOptions: { sendOTP: outbox.send } });
});
afterAll(() => t.close());

const row = (id: string) =>
  t.auth.$context.adapter.findOne<Record<string, unknown>>({ model: "twoFactor", where: [{ field: "userId", value: id }] });
const flag = async (email: string) =>
  ((await t.auth.$context.internalAdapter.findUserByEmail(email))?.user as { twoFactorEnabled?: boolean }).twoFactorEnabled;

describe("enrollment", () => {
  it("enable answers a TOTP URI and 10 backup codes; the row is unverified and the flag stays off", async () => {
    const browser = await signedUp(t, "enroll@example.com");
    const answer = await browser.post<{ method: string; totpURI: string; backupCodes: string[] }>("/two-factor/enable", {
      password: PASSWORD,
    });
    expect(answer.status).toBe(200);
    expect(answer.json!.method).toBe("totp");
    expect(answer.json!.totpURI).toMatch(
      /^otpauth:\/\/totp\/Latchkey%20Test:enroll%40example\.com\?secret=[A-Z2-7]+&issuer=Latchkey\+Test&digits=6&period=30$/,
    );
    expect(answer.json!.backupCodes).toHaveLength(10);
    for (const code of answer.json!.backupCodes) expect(code).toMatch(/^[a-zA-Z0-9]{5}-[a-zA-Z0-9]{5}$/);
    const id = await userId(t, "enroll@example.com");
    expect(await row(id)).toMatchObject({ verified: false, failedVerificationCount: 0 });
    expect(await flag("enroll@example.com")).toBe(false);
  });

  it("an unverified enrollment is restarted in place; a verified one answers TOTP_ALREADY_ENABLED", async () => {
    const browser = await signedUp(t, "restart@example.com");
    const id = await userId(t, "restart@example.com");
    await browser.post("/two-factor/enable", { password: PASSWORD });
    const first = await row(id);
    const again = await browser.post("/two-factor/enable", { password: PASSWORD });
    expect(again.status).toBe(200);
    const second = await row(id);
    expect(second!.id).toBe(first!.id);
    expect(second!.secret).not.toBe(first!.secret);
    const count = await t.auth.$context.adapter.count({ model: "twoFactor", where: [{ field: "userId", value: id }] });
    expect(count).toBe(1);
    const code = totpCode(await storedSecret(t, id), { digits: 6, period: 30 });
    const verified = await browser.post<{ token: string; user: { twoFactorEnabled: boolean } }>("/two-factor/verify-totp", { code });
    expect(verified.status).toBe(200);
    expect(verified.json!.user.twoFactorEnabled).toBe(true);
    // The answered token is the session the browser now holds (the old one was replaced).
    expect(browser.jar.values.get(SESSION_COOKIE)).toContain(verified.json!.token);
    expect((await browser.get<{ user: { twoFactorEnabled: boolean } }>("/get-session")).json!.user.twoFactorEnabled).toBe(true);
    const third = await browser.post("/two-factor/enable", { password: PASSWORD });
    expect(third.status).toBe(400);
    expect(third.json).toEqual({ code: "TOTP_ALREADY_ENABLED", message: "TOTP is already enabled" });
  });

  it("a wrong password is 400 INVALID_PASSWORD and changes nothing", async () => {
    const browser = await signedUp(t, "wrongpw@example.com");
    const answer = await browser.post("/two-factor/enable", { password: "nope-nope-nope" });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: "INVALID_PASSWORD" });
    expect(await row(await userId(t, "wrongpw@example.com"))).toBeNull();
  });

  it("get-totp-uri answers the enrolled secret's URI with the plugin issuer", async () => {
    const { browser, secret } = await enrolled(t, "uri@example.com");
    const answer = await browser.post<{ totpURI: string }>("/two-factor/get-totp-uri", { password: PASSWORD });
    expect(answer.status).toBe(200);
    const uri = new URL(answer.json!.totpURI);
    expect(uri.searchParams.get("issuer")).toBe("Latchkey Test");
    expect(uri.searchParams.get("secret")).toBe(base32(secret));
  });
});

describe("sign-in with the second factor", () => {
  it("a password sign-in answers the redirect with a challenge cookie and no session", async () => {
    await enrolled(t, "signin@example.com");
    const browser = client(t.auth);
    const answer = await browser.post("/sign-in/email", { email: "signin@example.com", password: PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect(browser.jar.values.has(SESSION_COOKIE)).toBe(false);
    expect(browser.jar.values.has(TWO_FACTOR_COOKIE)).toBe(true);
    expect((await browser.get("/get-session")).json).toBeNull();
  });

  it("verify-totp with the challenge starts the session; the challenge is single-use", async () => {
    const { secret } = await enrolled(t, "totp-signin@example.com");
    const browser = await challenged(t, "totp-signin@example.com");
    const challenge = browser.jar.values.get(TWO_FACTOR_COOKIE)!;
    const answer = await browser.post<{ token: string; user: { email: string } }>("/two-factor/verify-totp", {
      code: totpCode(secret, { digits: 6, period: 30 }),
    });
    expect(answer.status).toBe(200);
    expect(answer.json!.user.email).toBe("totp-signin@example.com");
    expect(browser.jar.values.has(TWO_FACTOR_COOKIE)).toBe(false);
    expect((await browser.get<{ user: { email: string } }>("/get-session")).json!.user.email).toBe("totp-signin@example.com");
    const replay = client(t.auth);
    replay.jar.values.set(TWO_FACTOR_COOKIE, challenge);
    const again = await replay.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }, Date.now() + 30_000) });
    expect(again.status).toBe(401);
    expect(again.json).toEqual({ code: "INVALID_TWO_FACTOR_COOKIE", message: "Invalid two factor cookie" });
  });

  it("a TOTP code's step is accepted once per user", async () => {
    const { secret } = await enrolled(t, "replay@example.com");
    const code = totpCode(secret, { digits: 6, period: 30 });
    const first = await challenged(t, "replay@example.com");
    expect((await first.post("/two-factor/verify-totp", { code })).status).toBe(200);
    const second = await challenged(t, "replay@example.com");
    const replay = await second.post("/two-factor/verify-totp", { code });
    expect(replay.status).toBe(401);
    expect(replay.json).toMatchObject({ code: "INVALID_CODE" });
  });

  it("five wrong codes use the challenge up; the sixth try is TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE", async () => {
    await enrolled(t, "attempts@example.com");
    const browser = await challenged(t, "attempts@example.com");
    for (let i = 0; i < 5; i++) expect((await browser.post("/two-factor/verify-totp", { code: "000000" })).status).toBe(401);
    const sixth = await browser.post("/two-factor/verify-totp", { code: "000000" });
    expect(sixth.status).toBe(400);
    expect(sixth.json).toMatchObject({ code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" });
    expect(browser.jar.values.has(TWO_FACTOR_COOKIE)).toBe(false);
  });

  it("a backup code signs in once and is removed", async () => {
    const { backupCodes, userId: id } = await enrolled(t, "backup@example.com");
    const browser = await challenged(t, "backup@example.com");
    const answer = await browser.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
    expect(answer.status).toBe(200);
    expect(await viewBackupCodes(t, id)).toEqual(backupCodes.slice(1));
    const again = await challenged(t, "backup@example.com");
    const reused = await again.post("/two-factor/verify-backup-code", { code: backupCodes[0] });
    expect(reused.status).toBe(401);
    expect(reused.json).toEqual({ code: "INVALID_BACKUP_CODE", message: "Invalid backup code" });
  });

  it("send-otp and verify-otp sign in; a wrong code is 401 INVALID_CODE", async () => {
    await enrolled(t, "otp@example.com");
    const browser = await challenged(t, "otp@example.com");
    expect((await browser.post("/two-factor/send-otp")).json).toEqual({ status: true });
    const code = outbox.last("otp@example.com");
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await browser.post("/two-factor/verify-otp", { code: code === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(401);
    expect((await browser.post("/two-factor/verify-otp", { code })).status).toBe(200);
    expect((await browser.get<{ user: { email: string } }>("/get-session")).json!.user.email).toBe("otp@example.com");
  });

  it("trustDevice skips the second factor at the next sign-in and rotates the cookie", async () => {
    const { secret } = await enrolled(t, "trust@example.com");
    const browser = await challenged(t, "trust@example.com");
    const answer = await browser.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }), trustDevice: true });
    expect(answer.status).toBe(200);
    const trust = browser.jar.values.get(TRUST_COOKIE)!;
    expect(trust).toBeTruthy();
    const line = answer.headers.getSetCookie().find((l) => l.startsWith(`${TRUST_COOKIE}=`))!;
    expect(line).toContain("Max-Age=2592000");
    await browser.post("/sign-out");
    const next = await browser.post<{ token: string }>("/sign-in/email", { email: "trust@example.com", password: PASSWORD });
    expect(next.status).toBe(200);
    expect(next.json!.token).toBeTruthy();
    expect(browser.jar.values.get(TRUST_COOKIE)).not.toBe(trust);
    // The old cookie was consumed by the rotation: it no longer skips anything.
    const stale = await challenged(t, "trust@example.com", { [TRUST_COOKIE]: trust });
    expect(stale.jar.values.has(TRUST_COOKIE)).toBe(false);
  });

  it("disable turns two-factor off, deletes the row and the sign-in needs no second factor", async () => {
    const { browser, userId: id } = await enrolled(t, "disable@example.com");
    const answer = await browser.post("/two-factor/disable", { password: PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ status: true });
    expect(await row(id)).toBeNull();
    expect(await flag("disable@example.com")).toBe(false);
    const next = await client(t.auth).post<{ token: string }>("/sign-in/email", { email: "disable@example.com", password: PASSWORD });
    expect(next.json!.token).toBeTruthy();
  });

  it("generate-backup-codes replaces the set", async () => {
    const { browser, backupCodes, userId: id } = await enrolled(t, "regen@example.com");
    const answer = await browser.post<{ status: boolean; backupCodes: string[] }>("/two-factor/generate-backup-codes", { password: PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.json!.backupCodes).toHaveLength(10);
    expect(answer.json!.backupCodes).not.toEqual(backupCodes);
    expect(await viewBackupCodes(t, id)).toEqual(answer.json!.backupCodes);
  });
});

/** RFC 4648 base32 of a string's UTF-8 bytes, no padding (test-side, written independently). */
function base32(text: string): string {
  const bits = [...new TextEncoder().encode(text)].map((b) => b.toString(2).padStart(8, "0")).join("");
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let out = "";
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, "0"), 2)];
  return out;
}
