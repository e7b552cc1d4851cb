import { APIError, defineErrorCodes, type StatusName } from "@latchkey/core";

/** The plugin's messages, word for word the reference's `DEVICE_AUTHORIZATION_ERROR_CODES`. */
export const DEVICE_AUTHORIZATION_ERROR_CODES = defineErrorCodes({
  INVALID_DEVICE_CODE: "Invalid device code",
  EXPIRED_DEVICE_CODE: "Device code has expired",
  EXPIRED_USER_CODE: "User code has expired",
  AUTHORIZATION_PENDING: "Authorization pending",
  ACCESS_DENIED: "Access denied",
  INVALID_USER_CODE: "Invalid user code",
  DEVICE_CODE_ALREADY_PROCESSED: "Device code already processed",
  DEVICE_CODE_NOT_CLAIMED:
    "Device code has not been claimed by a verifying session; call `GET /device` with the `user_code` while signed in before approving or denying",
  POLLING_TOO_FREQUENTLY: "Polling too frequently",
  USER_NOT_FOUND: "User not found",
  FAILED_TO_CREATE_SESSION: "Failed to create session",
  INVALID_DEVICE_CODE_STATUS: "Invalid device code status",
  AUTHENTICATION_REQUIRED: "Authentication required",
});

export type DeviceAuthorizationErrorCode = Exclude<keyof typeof DEVICE_AUTHORIZATION_ERROR_CODES, "fail">;

/** The `error` values the device routes answer with (RFC 6749 §5.2, RFC 8628 §3.5, and the reference's `unauthorized`). */
export type OAuthErrorName =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "invalid_target"
  | "authorization_pending"
  | "slow_down"
  | "expired_token"
  | "access_denied"
  | "unauthorized"
  | "server_error";

/** An OAuth-style error answer, `{ error, error_description }`, as every device route sends them. */
export const oauthError = (status: StatusName, error: OAuthErrorName, description: string): APIError =>
  new APIError(status, { error, error_description: description });

/** An OAuth-style error whose description is one of the plugin's messages. */
export const deviceError = (status: StatusName, error: OAuthErrorName, code: DeviceAuthorizationErrorCode): APIError =>
  oauthError(status, error, DEVICE_AUTHORIZATION_ERROR_CODES[code]);
