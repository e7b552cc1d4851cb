import type { EndpointContext, User } from "@latchkey/core";

/** A user as the two-factor plugin sees it: with the `twoFactorEnabled` column. */
export interface UserWithTwoFactor extends User {
  twoFactorEnabled?: boolean | null;
}

/** How one-time codes sent by `sendOTP` are kept in their verification row. */
export type StoreOTPOption =
  | "plain"
  | "encrypted"
  | "hashed"
  | { hash: (token: string) => Promise<string> }
  | { encrypt: (token: string) => Promise<string>; decrypt: (token: string) => Promise<string> };

/** How the backup-code list is kept in `twoFactor.backupCodes`. */
export type StoreBackupCodesOption =
  | "plain"
  | "encrypted"
  | { encrypt: (token: string) => Promise<string>; decrypt: (token: string) => Promise<string> };

/** TOTP (authenticator app) settings, under the reference's `totpOptions` names. */
export interface TOTPOptions {
  /** Digits of a code (RFC 4226 allows 6 to 8). @default 6 */
  digits?: number | undefined;
  /** Length of one time step, in seconds (RFC 6238 X). @default 30 */
  period?: number | undefined;
  /** Turns the TOTP routes off (they answer 400 `TOTP_NOT_CONFIGURED`). @default false */
  disable?: boolean | undefined;
  /** Password not needed for `get-totp-uri` when the user has none. @default the plugin's `allowPasswordless` */
  allowPasswordless?: boolean | undefined;
}

/** One-time codes sent by email or SMS, under the reference's `otpOptions` names. */
export interface OTPOptions {
  /** Lifetime of a sent code, in **minutes** (the reference's unit). @default 3 */
  period?: number | undefined;
  /** Digits of a sent code. @default 6 */
  digits?: number | undefined;
  /** Delivers a code; without it the OTP routes answer 400 `OTP_NOT_CONFIGURED`. */
  sendOTP?: ((data: { user: UserWithTwoFactor; otp: string }, ctx?: EndpointContext) => Promise<void> | void) | undefined;
  /** Wrong codes accepted per sent code before it is refused. @default 5 */
  allowedAttempts?: number | undefined;
  /** @default "plain" */
  storeOTP?: StoreOTPOption | undefined;
}

/** Backup (recovery) code settings, under the reference's `backupCodeOptions` names. */
export interface BackupCodeOptions {
  /** Codes per set. @default 10 */
  amount?: number | undefined;
  /** Characters per code before the `-` is inserted after the fifth. @default 10 */
  length?: number | undefined;
  /** Makes the codes instead of the random generator. */
  customBackupCodesGenerate?: (() => string[]) | undefined;
  /** @default "encrypted" */
  storeBackupCodes?: StoreBackupCodesOption | undefined;
  /** Password not needed for `generate-backup-codes` when the user has none. @default the plugin's `allowPasswordless` */
  allowPasswordless?: boolean | undefined;
}

/** Options of `twoFactor()`, with the reference's names, units and defaults. */
export interface TwoFactorOptions {
  /** Issuer shown by authenticator apps. @default the app name */
  issuer?: string | undefined;
  /** Physical name of the `twoFactor` table. @default "twoFactor" */
  twoFactorTable?: string | undefined;
  totpOptions?: TOTPOptions | undefined;
  otpOptions?: OTPOptions | undefined;
  backupCodeOptions?: BackupCodeOptions | undefined;
  /** `enable` turns two-factor on at once instead of after the first verified code. @default false */
  skipVerificationOnEnable?: boolean | undefined;
  /** The password is required only from users who have one. @default false */
  allowPasswordless?: boolean | undefined;
  /** Table and column renames, as the reference's `schema` option. */
  schema?:
    | {
        user?: { fields?: { twoFactorEnabled?: string } };
        twoFactor?: { modelName?: string; fields?: Partial<Record<TwoFactorField, string>> };
      }
    | undefined;
  /** Lifetime of the `two_factor` sign-in challenge, in seconds. @default 600 */
  twoFactorCookieMaxAge?: number | undefined;
  /** Lifetime of a trusted device, in seconds. @default 2592000 (30 days) */
  trustDeviceMaxAge?: number | undefined;
  /** Per-user lockout after repeated wrong codes at sign-in. */
  accountLockout?:
    | {
        /** @default true */
        enabled?: boolean | undefined;
        /** @default 10 */
        maxFailedAttempts?: number | undefined;
        /** @default 900 */
        durationSeconds?: number | undefined;
      }
    | undefined;
}

type TwoFactorField = "secret" | "backupCodes" | "userId" | "verified" | "failedVerificationCount" | "lockedUntil";

/** `TwoFactorOptions` after defaults; every duration converted once, to milliseconds. */
export interface ResolvedTwoFactorOptions {
  raw: TwoFactorOptions;
  issuer: string | undefined;
  skipVerificationOnEnable: boolean;
  allowPasswordless: boolean;
  totp: { digits: number; period: number; disabled: boolean; allowPasswordless: boolean };
  otp: {
    sendOTP: OTPOptions["sendOTP"];
    digits: number;
    periodMs: number;
    allowedAttempts: number;
    store: StoreOTPOption;
  };
  backupCodes: {
    amount: number;
    length: number;
    generate: (() => string[]) | undefined;
    store: StoreBackupCodesOption;
    allowPasswordless: boolean;
  };
  /** Seconds (cookie Max-Age); `Ms` forms for row expiries. */
  twoFactorCookieMaxAge: number;
  trustDeviceMaxAge: number;
  lockout: { enabled: boolean; maxFailedAttempts: number; durationMs: number };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`twoFactor: ${name} must be a positive integer`);
  return value;
}

function positiveNumber(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`twoFactor: ${name} must be a positive number`);
  return value;
}

/** Applies the defaults once, when the plugin is made; a value no code or cookie can carry is a `TypeError`. */
export function resolveTwoFactorOptions(options: TwoFactorOptions = {}): ResolvedTwoFactorOptions {
  const allowPasswordless = !!options.allowPasswordless;
  // Reference: `digits || 6` and `period || 30`, so 0 means the default too.
  const digits = options.totpOptions?.digits || 6;
  // RFC 4226 §5.3: at least 6 digits; a 31-bit truncation carries at most 9, the reference's HOTP stops at 8.
  if (!Number.isInteger(digits) || digits < 6 || digits > 8) throw new TypeError("twoFactor: totpOptions.digits must be 6, 7 or 8");
  const otpDigits = positiveInteger("otpOptions.digits", options.otpOptions?.digits ?? 6);
  const lockout = options.accountLockout ?? {};
  return {
    raw: options,
    issuer: options.issuer,
    skipVerificationOnEnable: !!options.skipVerificationOnEnable,
    allowPasswordless,
    totp: {
      digits,
      period: positiveInteger("totpOptions.period", options.totpOptions?.period || 30),
      disabled: !!options.totpOptions?.disable,
      allowPasswordless: options.totpOptions?.allowPasswordless ?? allowPasswordless,
    },
    otp: {
      sendOTP: options.otpOptions?.sendOTP,
      digits: otpDigits,
      periodMs: positiveNumber("otpOptions.period", options.otpOptions?.period || 3) * 60_000,
      allowedAttempts: positiveInteger("otpOptions.allowedAttempts", options.otpOptions?.allowedAttempts || 5),
      store: options.otpOptions?.storeOTP ?? "plain",
    },
    backupCodes: {
      amount: positiveInteger("backupCodeOptions.amount", options.backupCodeOptions?.amount ?? 10),
      length: positiveInteger("backupCodeOptions.length", options.backupCodeOptions?.length ?? 10),
      generate: options.backupCodeOptions?.customBackupCodesGenerate,
      store: options.backupCodeOptions?.storeBackupCodes ?? "encrypted",
      allowPasswordless: options.backupCodeOptions?.allowPasswordless ?? allowPasswordless,
    },
    twoFactorCookieMaxAge: positiveNumber("twoFactorCookieMaxAge", options.twoFactorCookieMaxAge ?? 600),
    trustDeviceMaxAge: positiveNumber("trustDeviceMaxAge", options.trustDeviceMaxAge ?? 2_592_000),
    lockout: {
      enabled: lockout.enabled ?? true,
      maxFailedAttempts: positiveInteger("accountLockout.maxFailedAttempts", lockout.maxFailedAttempts ?? 10),
      durationMs: positiveNumber("accountLockout.durationSeconds", lockout.durationSeconds ?? 900) * 1000,
    },
  };
}
