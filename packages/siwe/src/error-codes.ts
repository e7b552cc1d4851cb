import { APIError, defineErrorCodes } from "@latchkey/core";

/**
 * The codes the reference's routes answer with (it declares no map of its own; these are the
 * codes and messages of its errors, word for word).
 */
export const SIWE_ERROR_CODES = defineErrorCodes({
  SIWE_INVALID_NONCE: "SIWE getNonce must return an ERC-4361 nonce: 8-250 alphanumeric characters.",
  UNAUTHORIZED_INVALID_OR_EXPIRED_NONCE: "Unauthorized: Invalid or expired nonce",
  UNAUTHORIZED_SIWE_MESSAGE_MISMATCH:
    "Unauthorized: SIWE message does not match the expected nonce, domain, address, or chain ID",
  UNAUTHORIZED_SIWE_MESSAGE_EXPIRED: "Unauthorized: SIWE message has expired",
  UNAUTHORIZED_SIWE_MESSAGE_NOT_YET_VALID: "Unauthorized: SIWE message is not yet valid",
});

type SiweCode = Exclude<keyof typeof SIWE_ERROR_CODES, "fail">;

/**
 * An error as the reference's SIWE routes send it: `{ message, status, code? }` (its errors
 * carry the HTTP status in the body too).
 */
export function siweError(status: 401 | 500, code: SiweCode | null, message?: string): APIError {
  const name = status === 401 ? "UNAUTHORIZED" : "INTERNAL_SERVER_ERROR";
  if (code === null) return new APIError(name, { message: message ?? name, status });
  return new APIError(name, { message: SIWE_ERROR_CODES[code], status, code });
}
