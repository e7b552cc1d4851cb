/**
 * `?error=` codes the completion route redirects with (the reference's strings). They are
 * URL-safe redirect codes, not API error codes, so the plugin registers no `errorCodes`.
 * Failures of the sign-in or link itself use core's `OAUTH_CALLBACK_ERROR_CODES`.
 */
export const OAUTH_PROXY_ERROR_CODES = {
  /** The completion URL carries no `profile`. */
  MISSING_PROFILE: "missing_profile",
  /** `profile` does not decrypt under the shared secret (wrong secret, tampering, garbage). */
  INVALID_PROFILE: "invalid_profile",
  /** It decrypts, but is not a payload of the expected shape. */
  INVALID_PAYLOAD: "invalid_payload",
  /** The payload's account belongs to another provider than the route names. */
  PROVIDER_MISMATCH: "provider_mismatch",
  /** Older than `maxAge`, or stamped more than 10 seconds in the future. */
  PAYLOAD_EXPIRED: "payload_expired",
  /** The flow's state is unknown, used, expired, or not this browser's. */
  STATE_MISMATCH: "state_mismatch",
} as const;

/** One of {@link OAUTH_PROXY_ERROR_CODES}. */
export type OAuthProxyErrorCode = (typeof OAUTH_PROXY_ERROR_CODES)[keyof typeof OAUTH_PROXY_ERROR_CODES];
