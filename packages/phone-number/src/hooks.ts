import type { DatabaseHooks, HookEntry } from "@latchkey/core";
import { PHONE_NUMBER_ERROR_CODES } from "./error-codes.js";

/**
 * `/update-user` may clear the number (`phoneNumber: null`) but not set one: numbers change only
 * through a verified code (`/phone-number/verify` with `updatePhoneNumber`). 400
 * `PHONE_NUMBER_CANNOT_BE_UPDATED`, before anything is written.
 */
export const refuseNumberChange: HookEntry = {
  matcher: ["/update-user"],
  when: (ctx) => {
    const body = ctx.body as Record<string, unknown> | null | undefined;
    return !!body && typeof body === "object" && "phoneNumber" in body && body.phoneNumber !== null;
  },
  handler: async () => {
    throw PHONE_NUMBER_ERROR_CODES.fail("PHONE_NUMBER_CANNOT_BE_UPDATED", "BAD_REQUEST");
  },
};

/** Clearing a user's number also clears its verified flag. */
export const clearVerifiedFlag: DatabaseHooks = {
  user: {
    update: {
      before: (data) => {
        if ("phoneNumber" in data && data.phoneNumber === null)
          return { data: { ...data, phoneNumberVerified: false } };
      },
    },
  },
};
