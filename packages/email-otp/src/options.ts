import { applicationCallbacks, type EndpointContext } from "@latchkey/core";

/** What a code is for; part of the verification row's identifier. */
export type OTPType = "email-verification" | "sign-in" | "forget-password" | "change-email";

/** Every OTP type, in the reference's order. */
export const OTP_TYPES = ["email-verification", "sign-in", "forget-password", "change-email"] as const;

/** How codes are written to the verification row's value (before `:<attempts>`). */
export type OTPStorage =
  | "plain"
  | "hashed"
  | "encrypted"
  | { hash: (otp: string) => Promise<string> }
  | { encrypt: (otp: string) => Promise<string>; decrypt: (otp: string) => Promise<string> };

/** Options of `emailOTP()`, under the reference's names. */
export interface EmailOTPOptions {
  /** Mails the code. Required. Its failures are logged, never shown to the caller. */
  sendVerificationOTP: (data: { email: string; otp: string; type: OTPType }, ctx?: EndpointContext) => Promise<void> | void;
  /** Digits per code. @default 6 */
  otpLength?: number | undefined;
  /** Seconds a code stays valid. @default 300 */
  expiresIn?: number | undefined;
  /** Makes the code; a falsy answer falls back to `otpLength` random digits. */
  generateOTP?: ((data: { email: string; type: OTPType }, ctx?: EndpointContext) => string | undefined) | undefined;
  /** Mail an `email-verification` code after every `/sign-up*` response that returns a user. @default false */
  sendVerificationOnSignUp?: boolean | undefined;
  /** `sign-in` codes only for existing users. @default false */
  disableSignUp?: boolean | undefined;
  /** Wrong codes allowed before the code is void (403 `TOO_MANY_ATTEMPTS`). @default 3 */
  allowedAttempts?: number | undefined;
  /** How codes are stored. @default "plain" */
  storeOTP?: OTPStorage | undefined;
  /** Asking again: `"rotate"` makes a new code, `"reuse"` re-sends a live, recoverable one. @default "rotate" */
  resendStrategy?: "rotate" | "reuse" | undefined;
  /** The OTP email-change routes. @default { enabled: false, verifyCurrentEmail: false } */
  changeEmail?: { enabled?: boolean; verifyCurrentEmail?: boolean } | undefined;
  /** Core's verification mails (`emailVerification.sendVerificationEmail`) send a code instead of a link. @default false */
  overrideDefaultEmailVerification?: boolean | undefined;
  /** Requests per window on each route. @default { window: 60, max: 3 } */
  rateLimit?: { window: number; max: number } | undefined;
}

/** `EmailOTPOptions` with every default applied. */
export interface ResolvedEmailOTPOptions {
  sendVerificationOTP: EmailOTPOptions["sendVerificationOTP"];
  otpLength: number;
  expiresIn: number;
  generateOTP: EmailOTPOptions["generateOTP"];
  sendVerificationOnSignUp: boolean;
  disableSignUp: boolean;
  allowedAttempts: number;
  storeOTP: OTPStorage;
  resendStrategy: "rotate" | "reuse";
  changeEmail: { enabled: boolean; verifyCurrentEmail: boolean };
  overrideDefaultEmailVerification: boolean;
  rateLimit: { window: number; max: number };
}

const positiveInteger = (value: number): boolean => Number.isInteger(value) && value > 0;

/** Applies the defaults once; a missing sender or a bad number or storage is a `TypeError`. */
export function resolveEmailOTPOptions(options: EmailOTPOptions): ResolvedEmailOTPOptions {
  if (typeof options?.sendVerificationOTP !== "function") throw new TypeError("emailOTP: sendVerificationOTP is required");
  const otpLength = options.otpLength ?? 6;
  if (!positiveInteger(otpLength)) throw new TypeError("emailOTP: otpLength must be a positive integer");
  const expiresIn = options.expiresIn ?? 300;
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw new TypeError("emailOTP: expiresIn must be a positive number of seconds");
  // The reference reads `allowedAttempts || 3`: 0 means the default there too.
  const allowedAttempts = options.allowedAttempts || 3;
  if (!positiveInteger(allowedAttempts)) throw new TypeError("emailOTP: allowedAttempts must be a positive integer");
  const storeOTP = options.storeOTP ?? "plain";
  const known =
    storeOTP === "plain" ||
    storeOTP === "hashed" ||
    storeOTP === "encrypted" ||
    (typeof storeOTP === "object" &&
      (("hash" in storeOTP && typeof storeOTP.hash === "function") ||
        ("encrypt" in storeOTP && typeof storeOTP.encrypt === "function" && typeof storeOTP.decrypt === "function")));
  if (!known) throw new TypeError('emailOTP: storeOTP must be "plain", "hashed", "encrypted", { hash } or { encrypt, decrypt }');
  return {
    // The application's sender may refuse with an APIError of its own code.
    sendVerificationOTP: applicationCallbacks(options, ["sendVerificationOTP"]).sendVerificationOTP,
    otpLength,
    expiresIn,
    generateOTP: options.generateOTP,
    sendVerificationOnSignUp: options.sendVerificationOnSignUp ?? false,
    disableSignUp: options.disableSignUp ?? false,
    allowedAttempts,
    storeOTP,
    resendStrategy: options.resendStrategy ?? "rotate",
    changeEmail: { enabled: options.changeEmail?.enabled ?? false, verifyCurrentEmail: options.changeEmail?.verifyCurrentEmail ?? false },
    overrideDefaultEmailVerification: options.overrideDefaultEmailVerification ?? false,
    rateLimit: { window: options.rateLimit?.window || 60, max: options.rateLimit?.max || 3 },
  };
}
