import { defineErrorCodes } from "@latchkey/core";

/** The codes a captcha refusal carries, with the reference's messages. */
export const CAPTCHA_ERROR_CODES = defineErrorCodes({
  VERIFICATION_FAILED: "Captcha verification failed",
  MISSING_RESPONSE: "Missing CAPTCHA response",
  UNKNOWN_ERROR: "Something went wrong",
});

/** Failures that are logged, never sent: the client sees `UNKNOWN_ERROR` (reference). */
export const CAPTCHA_INTERNAL_ERRORS = {
  MISSING_SECRET_KEY: "Missing secret key",
  SERVICE_UNAVAILABLE: "CAPTCHA service unavailable",
} as const;

/** The refusal the reference sends from its request interceptor: `{ message, code }` with a status. */
export function refusal(code: keyof typeof CAPTCHA_ERROR_CODES & string, status: 400 | 403 | 500): Response {
  // Same key order as the reference's body; the reference sends no JSON content type (row 92).
  return Response.json({ message: CAPTCHA_ERROR_CODES[code], code }, { status });
}
