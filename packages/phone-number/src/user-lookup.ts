import type { EndpointContext, User } from "@latchkey/core";
import { PHONE_NUMBER_ERROR_CODES } from "./error-codes.js";
import type { PhoneNumberOptions } from "./options.js";

/** A user row with the plugin's columns. */
export type PhoneUser = User & { phoneNumber?: string | null; phoneNumberVerified?: boolean | null };

/** The user whose `phoneNumber` is `phoneNumber`, if any. */
export const findUserByPhone = (ctx: EndpointContext, phoneNumber: string): Promise<PhoneUser | null> =>
  ctx.context.adapter.findOne<PhoneUser>({
    model: "user",
    where: [{ field: "phoneNumber", value: phoneNumber }],
  });

/** Runs `phoneNumberValidator` when configured: 400 `INVALID_PHONE_NUMBER` when it refuses. */
export async function assertValidPhone(options: PhoneNumberOptions, phoneNumber: string): Promise<void> {
  if (options.phoneNumberValidator && !(await options.phoneNumberValidator(phoneNumber)))
    throw PHONE_NUMBER_ERROR_CODES.fail("INVALID_PHONE_NUMBER", "BAD_REQUEST");
}
