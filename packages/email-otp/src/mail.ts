import { deliver, withMinimumDuration, type AuthContext, type EndpointContext } from "@latchkey/core";
import type { OTPType, ResolvedEmailOTPOptions } from "./options.js";

/**
 * Answers that depend on whether an address has a user (send, password reset, email change)
 * come no sooner than this after the request: an unknown address (no mail) and a known one (a
 * mail sender's round trip) take the same time.
 */
export const ANSWER_FLOOR_MS = 500;

/** `{ success: true }`, after at least {@link ANSWER_FLOOR_MS}. */
export const evenly = (work: () => Promise<unknown>): Promise<{ success: boolean }> =>
  withMinimumDuration(ANSWER_FLOOR_MS, async () => {
    await work();
    return { success: true };
  });

/** Mails a code; a sender failure is logged without the address and never changes the answer. */
export function mailOTP(
  ctx: EndpointContext,
  options: ResolvedEmailOTPOptions,
  data: { email: string; otp: string; type: OTPType },
): Promise<void> {
  return deliver(ctx, `${data.type} OTP`, async () => options.sendVerificationOTP(data, ctx));
}

/** The same outside a request (core's verification mails): a failure is logged by class only. */
export async function mailOTPFrom(
  auth: AuthContext,
  options: ResolvedEmailOTPOptions,
  data: { email: string; otp: string; type: OTPType },
): Promise<void> {
  try {
    await options.sendVerificationOTP(data);
  } catch (error) {
    auth.logger.error(`Failed to send the ${data.type} OTP mail (${error instanceof Error ? error.name : typeof error}).`);
  }
}
