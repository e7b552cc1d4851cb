import type { EndpointContext } from "../api/context.js";
import type { APIError } from "../errors/api-error.js";
import { appendQueryParams } from "../security/redirect-url.js";

/**
 * `?error=` codes of OAuth callback redirects (spec, OAuth callback error codes). URL-safe
 * strings, not API error codes.
 */
export const OAUTH_CALLBACK_ERROR_CODES = {
  INVALID_CALLBACK_REQUEST: "invalid_callback_request",
  STATE_NOT_FOUND: "state_not_found",
  STATE_MISMATCH: "state_mismatch",
  NO_CODE: "no_code",
  PROVIDER_NOT_FOUND: "oauth_provider_not_found",
  ISSUER_MISSING: "issuer_missing",
  ISSUER_MISMATCH: "issuer_mismatch",
  NONCE_BINDING_MISSING: "nonce_binding_missing",
  INVALID_CODE: "invalid_code",
  UNABLE_TO_GET_USER_INFO: "unable_to_get_user_info",
  NO_CALLBACK_URL: "no_callback_url",
  EMAIL_NOT_FOUND: "email_not_found",
  EMAIL_NOT_VERIFIED: "email_not_verified",
  UNABLE_TO_LINK_ACCOUNT: "unable_to_link_account",
  UNABLE_TO_UPDATE_ACCOUNT: "unable_to_update_account",
  UNABLE_TO_CREATE_USER: "unable_to_create_user",
  UNABLE_TO_CREATE_SESSION: "unable_to_create_session",
  SIGNUP_DISABLED: "signup_disabled",
  EMAIL_DOES_NOT_MATCH: "email_does_not_match",
  ACCOUNT_ALREADY_LINKED_TO_DIFFERENT_USER: "account_already_linked_to_different_user",
  INTERNAL_SERVER_ERROR: "internal_server_error",
} as const;

/** One callback error code. */
export type OAuthCallbackErrorCode =
  (typeof OAUTH_CALLBACK_ERROR_CODES)[keyof typeof OAUTH_CALLBACK_ERROR_CODES];

/** Where errors go when no flow-specific URL is known: `onAPIError.errorURL`, else `<baseURL>/error`. */
export const defaultErrorURL = (ctx: EndpointContext): string =>
  ctx.context.options.onAPIError?.errorURL || `${ctx.context.baseURL}/error`;

/**
 * The redirect to `errorURL` with `error` (and `error_description`) appended to whatever
 * query it has. A target that cannot carry a query falls back to the default error URL.
 */
export function callbackErrorRedirect(
  ctx: EndpointContext,
  errorURL: string,
  error: string,
  description?: string,
): APIError {
  const params: Record<string, string> = { error };
  if (description) params.error_description = description;
  const target =
    appendQueryParams(errorURL, params) ??
    appendQueryParams(defaultErrorURL(ctx), params) ??
    `/?error=${encodeURIComponent(error)}`;
  return ctx.redirect(target);
}
