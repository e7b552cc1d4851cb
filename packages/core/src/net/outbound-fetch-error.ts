import { BetterAuthError } from "../errors/api-error.js";

/** Why a server-side request was given up; stable strings a caller may branch on. */
export type OutboundFetchErrorCode =
  | "INVALID_URL"
  | "TIMEOUT"
  | "ABORTED"
  | "NETWORK_ERROR"
  | "REDIRECT_REFUSED"
  | "RESPONSE_TOO_LARGE";

/**
 * A server-side request (token endpoint, UserInfo, discovery, JWKS, ...) that did not yield a
 * usable answer. The message names only the target's origin: never the path or query (which
 * may carry tokens), the request body, the response body or the underlying error object.
 */
export class OutboundFetchError extends BetterAuthError {
  /** Stable reason for the failure. */
  readonly code: OutboundFetchErrorCode;
  /** `scheme://host[:port]` of the target, or "" when the URL did not parse. */
  readonly origin: string;

  constructor(code: OutboundFetchErrorCode, origin: string, detail: string) {
    super(`Outbound request to ${origin || "an invalid URL"} ${detail} (${code})`);
    this.name = "OutboundFetchError";
    this.code = code;
    this.origin = origin;
  }
}
