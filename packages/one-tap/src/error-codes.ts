/**
 * Messages of One Tap's own 400 answers. The reference sends them without a `code` (the body
 * is `{ message }` only), so they are messages, not codes; kept verbatim for clients that
 * match on them.
 */
export const ONE_TAP_ERROR_MESSAGES = {
  CLIENT_ID_REQUIRED:
    "Google client ID is required for One Tap. Set it on the oneTap plugin (clientId) or on socialProviders.google.",
  INVALID_ID_TOKEN: "invalid id token",
  EMAIL_NOT_AVAILABLE: "Email not available in token",
} as const;
