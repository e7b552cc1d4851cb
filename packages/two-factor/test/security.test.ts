import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testAuth, type TestAuth } from "@latchkey/test-support";
import { twoFactor } from "../src/index.ts";
import { challenged, client, enrolled, PASSWORD, SESSION_COOKIE, totpCode, TRUST_COOKIE, TWO_FACTOR_COOKIE, twoFactorInstance } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await twoFactorInstance("sqlite");
});
afterAll(() => t.close());

describe("forged and borrowed cookies", () => {
  it("a challenge cookie with a bad signature, or naming no challenge, is 401 INVALID_TWO_FACTOR_COOKIE", async () => {
    const { secret } = await enrolled(t, "forged@example.com");
    const browser = await challenged(t, "forged@example.com");
    const value = decodeURIComponent(browser.jar.values.get(TWO_FACTOR_COOKIE)!);
    const [identifier] = value.split(".");
    for (const forged of [`${identifier}.${"A".repeat(43)}=`, identifier!, "2fa-unknown"]) {
      const other = client(t.auth);
      other.jar.values.set(TWO_FACTOR_COOKIE, encodeURIComponent(forged));
      const answer = await other.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }) });
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ code: "INVALID_TWO_FACTOR_COOKIE", message: "Invalid two factor cookie" });
    }
  });

  it("a trust cookie is bound to its user: another user's sign-in is challenged and the cookie expired", async () => {
    const a = await enrolled(t, "trust-a@example.com");
    await enrolled(t, "trust-b@example.com");
    const browser = await challenged(t, "trust-a@example.com");
    await browser.post("/two-factor/verify-totp", { code: totpCode(a.secret, { digits: 6, period: 30 }), trustDevice: true });
    const trust = browser.jar.values.get(TRUST_COOKIE)!;
    const other = await challenged(t, "trust-b@example.com", { [TRUST_COOKIE]: trust });
    expect(other.jar.values.has(TRUST_COOKIE)).toBe(false);
    expect(other.jar.values.has(SESSION_COOKIE)).toBe(false);
    // Still good for its own user.
    const own = client(t.auth);
    own.jar.values.set(TRUST_COOKIE, trust);
    expect((await own.post<{ token: string }>("/sign-in/email", { email: "trust-a@example.com", password: PASSWORD })).json!.token).toBeTruthy();
  });

  it("one trust cookie replayed by five parallel sign-ins skips the second factor once", async () => {
    const { secret } = await enrolled(t, "trust-race@example.com");
    const browser = await challenged(t, "trust-race@example.com");
    await browser.post("/two-factor/verify-totp", { code: totpCode(secret, { digits: 6, period: 30 }), trustDevice: true });
    const trust = browser.jar.values.get(TRUST_COOKIE)!;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => {
        const c = client(t.auth);
        c.jar.values.set(TRUST_COOKIE, trust);
        return c.post<{ token?: string; twoFactorRedirect?: boolean }>("/sign-in/email", { email: "trust-race@example.com", password: PASSWORD });
      }),
    );
    expect(answers.filter((a) => a.json?.token)).toHaveLength(1);
    expect(answers.filter((a) => a.json?.twoFactorRedirect)).toHaveLength(4);
  });

  it("error bodies never carry the submitted password or code", async () => {
    const browser = await client(t.auth);
    await browser.post("/sign-up/email", { email: "leak@example.com", password: PASSWORD, name: "l" });
    const secretish = "hunter2-very-secret-password";
    const answer = await browser.post("/two-factor/enable", { password: secretish });
    expect(answer.text).not.toContain(secretish);
    const code = await browser.post("/two-factor/verify-totp", { code: "987654321-secret" });
    expect(code.text).not.toContain("987654321");
  });
});

describe("rate limit", () => {
  it("every /two-factor/ path: 3 requests per 10 seconds, then 429", async () => {
    const limited = await testAuth(
      { emailAndPassword: { enabled: true }, rateLimit: { enabled: true }, plugins: [twoFactor()] },
      { db: "sqlite" },
    );
    try {
      const browser = client(limited.auth);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await browser.post("/two-factor/verify-totp", { code: "123456" })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
