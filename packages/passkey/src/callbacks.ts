import { APIError, type EndpointContext } from "@latchkey/core";

/**
 * Runs an application callback (`afterVerification`). An `APIError` it throws is answered as
 * is; anything else is logged and answered with `fallback`, as the reference's catch-all does
 * (a registration 500 `FAILED_TO_VERIFY_REGISTRATION`, a sign-in 400 `AUTHENTICATION_FAILED`).
 */
export async function runCallback<T>(
  ctx: EndpointContext,
  what: string,
  fallback: () => APIError,
  fn: () => T | Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof APIError) throw error;
    ctx.context.logger.error(`passkey: ${what} failed`, error);
    throw fallback();
  }
}
