import { endpoint } from "@latchkey/core";
import * as v from "valibot";
import { phoneField } from "../phone-field.js";
import type { ResolvedPhoneNumberOptions } from "../options.js";
import { checkCode } from "../otp.js";

const body = v.object({ phoneNumber: phoneField(), code: v.string() });

/**
 * Server-only `auth.api.consumePhoneNumberOTP({ body: { phoneNumber, code } })`: checks and uses
 * up a code without touching a user or a session (for flows of the application's own);
 * `{ status: true }`.
 */
export function consumePhoneNumberOTP(options: ResolvedPhoneNumberOptions) {
  return endpoint("/phone-number/consume-otp", { method: "POST", body, serverOnly: true }, async (ctx) => {
    await checkCode(ctx, options, ctx.body.phoneNumber, ctx.body.code);
    return { status: true };
  });
}
