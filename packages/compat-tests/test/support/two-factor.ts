import { createOTP } from "@better-auth/utils/otp";
import { twoFactor as referenceTwoFactor } from "better-auth/plugins";
import { twoFactor, type TwoFactorOptions } from "@latchkey/two-factor";
import { CookieJar, responseCookies, type ParsedCookie } from "./cookies.ts";
import { createPair, url, type Handler, type Pair } from "./instances.ts";

/** Shared by the two-factor compat files. */
export const PASSWORD = "password-1234";
export const TWO_FACTOR_COOKIE = "better-auth.two_factor";
export const TRUST_COOKIE = "better-auth.trust_device";

/** Codes each side's `sendOTP` delivered, by email (one outbox for both sides). */
export const outbox = new Map<string, string>();
const sendOTP = ({ user, otp }: { user: { email: string }; otp: string }): void => {
  outbox.set(user.email, otp);
};

/** A pair with `twoFactor(options)` on both sides (plus `sendOTP` unless `noOTP`). */
export function twoFactorPair(options: TwoFactorOptions & { noOTP?: boolean } = {}, extra: { baseURL?: string } = {}): Promise<Pair> {
  const { noOTP, ...rest } = options;
  const shared = noOTP ? rest : { ...rest, otpOptions: { ...rest.otpOptions, sendOTP } };
  return createPair({
    ...extra,
    reference: { plugins: [referenceTwoFactor(shared as Parameters<typeof referenceTwoFactor>[0])] },
    latchkey: { plugins: [twoFactor(shared)] },
  });
}

/** One answer, as compared across sides. */
export interface Answer {
  status: number;
  json: unknown;
  cookies: ParsedCookie[];
  response: Response;
}

/** A browser: one cookie jar in front of one handler (which can be swapped for the other side's). */
export class Browser {
  readonly jar = new CookieJar();
  constructor(public handler: Handler) {}

  async post(path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { cookie: this.jar.header() };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await this.handler(
      new Request(url(path), { method: "POST", headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    );
    this.jar.store(response);
    const text = await response.clone().text();
    return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null, cookies: responseCookies(response), response };
  }

  async session(): Promise<{ user: { email: string } } | null> {
    const response = await this.handler(new Request(url("/get-session"), { headers: { cookie: this.jar.header() } }));
    return (await response.json()) as { user: { email: string } } | null;
  }
}

/** The plain TOTP secret an `otpauth://` URI carries (base32 → UTF-8, as the reference encodes it). */
export function secretOf(totpURI: string): string {
  const encoded = new URL(totpURI).searchParams.get("secret")!;
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...encoded].map((c) => alphabet.indexOf(c).toString(2).padStart(5, "0")).join("");
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The reference's own TOTP code of `secret` at `ms` (its `createOTP`, the clock moved by the offset). */
export async function referenceCode(secret: string, ms = Date.now(), params: { digits?: number; period?: number } = {}): Promise<string> {
  const period = params.period ?? 30;
  return createOTP(secret, { digits: params.digits ?? 6, period }).hotp(Math.floor(ms / (period * 1000)));
}

/**
 * Signs `email` up on `browser`'s side and enrolls TOTP there (enable, then verify with the
 * previous step's code, computed by the reference's `createOTP`). Returns the secret and codes.
 */
export async function enroll(browser: Browser, email: string): Promise<{ secret: string; backupCodes: string[]; totpURI: string }> {
  const up = await browser.post("/sign-up/email", { email, password: PASSWORD, name: email });
  if (up.status !== 200) throw new Error(`sign-up: ${up.status}`);
  const enabled = await browser.post("/two-factor/enable", { password: PASSWORD });
  const { totpURI, backupCodes } = enabled.json as { totpURI: string; backupCodes: string[] };
  const secret = secretOf(totpURI);
  const verified = await browser.post("/two-factor/verify-totp", { code: await referenceCode(secret, Date.now() - 30_000) });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.json)}`);
  return { secret, backupCodes, totpURI };
}

/** A fresh browser on `handler` that signs in with the password (and must get the 2FA redirect). */
export async function challenge(handler: Handler, email: string): Promise<Browser> {
  const browser = new Browser(handler);
  const answer = await browser.post("/sign-in/email", { email, password: PASSWORD });
  if (!(answer.json as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect) {
    throw new Error(`no redirect: ${answer.status} ${JSON.stringify(answer.json)}`);
  }
  return browser;
}
