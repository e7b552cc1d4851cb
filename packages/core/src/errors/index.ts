import { APIError, type StatusName } from "./api-error.js";
import { BASE_ERROR_CODES, type BaseErrorCode } from "./codes.js";

export { APIError, BetterAuthError, STATUS, type APIErrorBody, type StatusName } from "./api-error.js";
export { BASE_ERROR_CODES, type BaseErrorCode } from "./codes.js";

/** Shorthand for `APIError` with a core code: `fail("UNAUTHORIZED", "INVALID_EMAIL_OR_PASSWORD")`. */
export function fail(status: StatusName | number, code: BaseErrorCode): APIError {
  return APIError.from(status, code, BASE_ERROR_CODES[code]);
}
