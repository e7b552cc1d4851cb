import { applicationCallbacks, type EndpointContext, type User } from "@latchkey/core";

/** A code to deliver: the number and the digits. */
export interface PhoneCode {
  phoneNumber: string;
  code: string;
}

/** `phoneNumber()` options, with the reference's names and defaults. */
export interface PhoneNumberOptions {
  /** Sends a verification code by SMS. Without it `/phone-number/send-otp` answers 501. */
  sendOTP?: ((data: PhoneCode, ctx: EndpointContext) => void | Promise<void>) | undefined;
  /**
   * Checks a code with an outside service (Twilio Verify, …) instead of the stored one; true
   * accepts. Stored codes for the number are then dropped.
   */
  verifyOTP?: ((data: PhoneCode, ctx: EndpointContext) => boolean | Promise<boolean>) | undefined;
  /** Sends a password-reset code. */
  sendPasswordResetOTP?: ((data: PhoneCode, ctx: EndpointContext) => void | Promise<void>) | undefined;
  /** Digits per code. @default 6 */
  otpLength?: number | undefined;
  /** Seconds a code stays valid. @default 300 */
  expiresIn?: number | undefined;
  /** Wrong codes allowed before a code is dropped; 0 allows none. @default 3 */
  allowedAttempts?: number | undefined;
  /** Accepts or refuses a number (400 `INVALID_PHONE_NUMBER`). */
  phoneNumberValidator?: ((phoneNumber: string) => boolean | Promise<boolean>) | undefined;
  /** Password sign-in of an unverified number is refused (401) and a code is sent. @default false */
  requireVerification?: boolean | undefined;
  /** Verifying an unknown number signs it up, with these temporary email and name. */
  signUpOnVerification?:
    | {
        getTempEmail: (phoneNumber: string) => string;
        getTempName?: ((phoneNumber: string) => string) | undefined;
      }
    | undefined;
  /** Runs after a number is verified (or changed), with the updated user. */
  callbackOnVerification?:
    ((data: { phoneNumber: string; user: User }, ctx: EndpointContext) => void | Promise<void>) | undefined;
  /** Physical column names: `{ user: { fields: { phoneNumber: "phone" } } }`. */
  schema?:
    | {
        user?:
          | {
              fields?:
                { phoneNumber?: string | undefined; phoneNumberVerified?: string | undefined } | undefined;
            }
          | undefined;
      }
    | undefined;
}

/** The options with their defaults applied (the reference's `||` and `??`). */
export interface ResolvedPhoneNumberOptions extends PhoneNumberOptions {
  otpLength: number;
  expiresIn: number;
  allowedAttempts: number;
}

export function resolvePhoneNumberOptions(options: PhoneNumberOptions = {}): ResolvedPhoneNumberOptions {
  const resolved = {
    // The application's senders and checks may refuse with an APIError of their own code.
    ...applicationCallbacks(options, ["sendOTP", "verifyOTP", "callbackOnVerification", "phoneNumberValidator"]),
    otpLength: options.otpLength || 6,
    expiresIn: options.expiresIn || 300,
    allowedAttempts: options.allowedAttempts ?? 3,
  };
  if (!Number.isSafeInteger(resolved.otpLength) || resolved.otpLength < 1)
    throw new TypeError("phoneNumber: otpLength must be a positive integer.");
  if (!Number.isSafeInteger(resolved.allowedAttempts) || resolved.allowedAttempts < 0)
    throw new TypeError("phoneNumber: allowedAttempts must be a non-negative integer.");
  return resolved;
}
