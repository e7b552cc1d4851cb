import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import { symmetricDecrypt } from "@latchkey/core";
import { twoFactor, type TwoFactorOptions } from "../src/index.ts";
import { totpCode } from "../src/totp.ts";

export const PASSWORD = "correct horse battery";
export const SESSION_COOKIE = "better-auth.session_token";
export const TWO_FACTOR_COOKIE = "better-auth.two_factor";
export const TRUST_COOKIE = "better-auth.trust_device";

/** A test outbox for `otpOptions.sendOTP`: the last code sent to each email. */
export class Outbox {
  readonly codes = new Map<string, string>();
  readonly send = ({ user, otp }: { user: { email: string }; otp: string }): void => {
    this.codes.set(user.email, otp);
  };
  last(email: string): string {
    const code = this.codes.get(email);
    if (!code) throw new Error(`no code sent to ${email}`);
    return code;
  }
}

/** An instance with email/password and `twoFactor(options)` on a fresh database. */
export const twoFactorInstance = (db: DatabaseKind, options?: TwoFactorOptions): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, plugins: [twoFactor(options)] }, { db });

/** Signs `email` up through a new browser, which ends up signed in. */
export async function signedUp(t: TestAuth, email: string): Promise<TestClient> {
  const browser = client(t.auth);
  const answer = await browser.post("/sign-up/email", { email, password: PASSWORD, name: email });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`);
  return browser;
}

/** The plain TOTP secret stored for `userId` (decrypted with the test secret). */
export async function storedSecret(t: TestAuth, userId: string): Promise<string> {
  const row = await t.auth.$context.adapter.findOne<{ secret: string }>({ model: "twoFactor", where: [{ field: "userId", value: userId }] });
  if (!row) throw new Error("no twoFactor row");
  return symmetricDecrypt({ key: t.auth.$context.secret, data: row.secret });
}

/** The user id of `email`. */
export async function userId(t: TestAuth, email: string): Promise<string> {
  const user = await t.auth.$context.internalAdapter.findUserByEmail(email);
  if (!user) throw new Error("no user");
  return user.user.id;
}

/**
 * Signs `email` up, enrolls TOTP and confirms it with a code (two-factor on). Returns the
 * browser (signed in), the plain secret and the backup codes.
 */
export async function enrolled(
  t: TestAuth,
  email: string,
  options: { digits?: number; period?: number } = {},
): Promise<{ browser: TestClient; secret: string; backupCodes: string[]; userId: string }> {
  const browser = await signedUp(t, email);
  const enable = await browser.post<{ backupCodes: string[] }>("/two-factor/enable", { password: PASSWORD });
  if (enable.status !== 200 || !enable.json) throw new Error(`enable failed: ${enable.status} ${enable.text}`);
  const id = await userId(t, email);
  const secret = await storedSecret(t, id);
  const params = { digits: options.digits ?? 6, period: options.period ?? 30 };
  // The previous step's code: the current one stays unused for the test itself.
  const code = totpCode(secret, params, Date.now() - params.period * 1000);
  const verify = await browser.post("/two-factor/verify-totp", { code });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.status} ${verify.text}`);
  return { browser, secret, backupCodes: enable.json.backupCodes, userId: id };
}

/** A new browser that signs in with the password: answers the 2FA redirect, holds the challenge cookie. */
export async function challenged(t: TestAuth, email: string, cookies: Record<string, string> = {}): Promise<TestClient> {
  const browser = client(t.auth);
  for (const [name, value] of Object.entries(cookies)) browser.jar.values.set(name, value);
  const answer = await browser.post<{ twoFactorRedirect?: boolean }>("/sign-in/email", { email, password: PASSWORD });
  if (answer.status !== 200 || !answer.json?.twoFactorRedirect) throw new Error(`no 2FA redirect: ${answer.status} ${answer.text}`);
  return browser;
}

/** The server-only `viewBackupCodes` of a test instance: the user's remaining codes. */
export async function viewBackupCodes(t: TestAuth, id: string): Promise<string[]> {
  const api = t.auth.api as unknown as { viewBackupCodes(args: { body: { userId: string } }): Promise<{ backupCodes: string[] }> };
  return (await api.viewBackupCodes({ body: { userId: id } })).backupCodes;
}

export { client, totpCode };
