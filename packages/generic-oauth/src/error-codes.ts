import { defineErrorCodes } from "@latchkey/core";

/**
 * Error codes of the Generic OAuth plugin → messages (the reference's strings). The first
 * two are the reference's 1.7 codes; `PROVIDER_CONFIG_NOT_FOUND` is the 1.0 code the
 * legacy routes answer for an unknown `providerId`.
 */
export const GENERIC_OAUTH_ERROR_CODES = defineErrorCodes({
  INVALID_OAUTH_CONFIGURATION: "Invalid OAuth configuration",
  TOKEN_URL_NOT_FOUND: "Invalid OAuth configuration. Token URL not found.",
  PROVIDER_CONFIG_NOT_FOUND: "No config found for provider",
});

/** One Generic OAuth error code. */
export type GenericOAuthErrorCode = Exclude<keyof typeof GENERIC_OAUTH_ERROR_CODES, "fail">;
