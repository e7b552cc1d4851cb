import { APIError } from "@latchkey/core";

/**
 * The reference answers these with a message and no `code` (`{ "message": "Invalid token" }`),
 * so they are plain 400 `APIError`s rather than declared codes.
 */
export const ONE_TIME_TOKEN_MESSAGES = {
  INVALID_TOKEN: "Invalid token",
  SESSION_NOT_FOUND: "Session not found",
  SESSION_EXPIRED: "Session expired",
  CLIENT_REQUESTS_DISABLED: "Client requests are disabled",
} as const;

/** A 400 with one of the messages above. */
export const badRequest = (key: keyof typeof ONE_TIME_TOKEN_MESSAGES): APIError =>
  new APIError("BAD_REQUEST", { message: ONE_TIME_TOKEN_MESSAGES[key] });
