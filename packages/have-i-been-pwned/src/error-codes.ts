import { defineErrorCodes } from "@latchkey/core";

/** The plugin's error codes. */
export const HAVE_I_BEEN_PWNED_ERROR_CODES = defineErrorCodes({
  /** Reference code and message (the message can be replaced by `customPasswordCompromisedMessage`). */
  PASSWORD_COMPROMISED: "The password you entered has been compromised. Please choose a different password.",
  /** Latchkey only: the range API could not be asked; the reference answers 500 here (row 95). */
  PASSWORD_CHECK_UNAVAILABLE: "Failed to check password. Please try again later.",
});
