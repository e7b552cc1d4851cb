import { defineErrorCodes } from "@latchkey/core";

/** The plugin's error codes and the reference's messages. */
export const MULTI_SESSION_ERROR_CODES = defineErrorCodes({
  INVALID_SESSION_TOKEN: "Invalid session token",
});
