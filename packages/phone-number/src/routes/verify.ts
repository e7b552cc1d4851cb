import {
  endpoint,
  fail,
  getClientIP,
  getSessionFromRequest,
  parseInput,
  setSessionCookie,
  toOutput,
  type EndpointContext,
  type User,
} from "@latchkey/core";
import * as v from "valibot";
import { phoneField } from "../phone-field.js";
import { PHONE_NUMBER_ERROR_CODES } from "../error-codes.js";
import type { ResolvedPhoneNumberOptions } from "../options.js";
import { checkCode } from "../otp.js";
import { findUserByPhone, type PhoneUser } from "../user-lookup.js";

// Other keys are the new user's additional fields when the verification signs a number up.
const body = v.looseObject({
  phoneNumber: phoneField(),
  code: v.string(),
  disableSession: v.optional(v.boolean()),
  updatePhoneNumber: v.optional(v.boolean()),
});

/**
 * `POST /phone-number/verify` `{ phoneNumber, code, disableSession?, updatePhoneNumber?, …fields }`:
 * uses up the code, then
 * - with `updatePhoneNumber`: gives the signed-in user this number, verified (400
 *   `PHONE_NUMBER_EXIST` when another user has it; 401 without a session);
 * - else marks the number's user verified, or signs the number up (`signUpOnVerification`),
 *   and opens a session unless `disableSession`.
 * `{ status: true, token, user }` (`token` null without a session).
 */
export function verifyPhoneNumber(options: ResolvedPhoneNumberOptions) {
  return endpoint("/phone-number/verify", { method: "POST", body }, async (ctx) => {
    const { phoneNumber, code } = ctx.body;
    await checkCode(ctx, options, phoneNumber, code);
    if (ctx.body.updatePhoneNumber) return updateNumber(ctx, options, phoneNumber);
    const found = await findUserByPhone(ctx, phoneNumber);
    const user = found
      ? await ctx.context.internalAdapter.updateUser(
          found.id,
          { phoneNumberVerified: true } as Partial<User>,
          ctx,
        )
      : await signUp(ctx, options);
    if (!user) throw fail("INTERNAL_SERVER_ERROR", found ? "FAILED_TO_UPDATE_USER" : "FAILED_TO_CREATE_USER");
    await options.callbackOnVerification?.({ phoneNumber, user }, ctx);
    const output = toOutput(ctx.context.schema, "user", user);
    if (ctx.body.disableSession) return { status: true, token: null as string | null, user: output };
    const session = await ctx.context.internalAdapter.createSession(
      user.id,
      false,
      { ipAddress: getClientIP(ctx.headers, ctx.context.options), userAgent: ctx.headers.get("user-agent") },
      ctx,
    );
    if (!session) throw fail("INTERNAL_SERVER_ERROR", "FAILED_TO_CREATE_SESSION");
    await setSessionCookie(ctx, { session, user });
    return { status: true, token: session.token as string | null, user: output };
  });
}

type VerifyContext = EndpointContext<{ phoneNumber: string; code: string } & Record<string, unknown>>;

async function updateNumber(ctx: VerifyContext, options: ResolvedPhoneNumberOptions, phoneNumber: string) {
  const current = await getSessionFromRequest(ctx);
  if (!current) throw fail("UNAUTHORIZED", "USER_NOT_FOUND");
  if (await findUserByPhone(ctx, phoneNumber))
    throw PHONE_NUMBER_ERROR_CODES.fail("PHONE_NUMBER_EXIST", "BAD_REQUEST");
  const user = await ctx.context.internalAdapter.updateUser(
    current.user.id,
    { phoneNumber, phoneNumberVerified: true } as Partial<User>,
    ctx,
  );
  if (!user) throw fail("INTERNAL_SERVER_ERROR", "FAILED_TO_UPDATE_USER");
  await options.callbackOnVerification?.({ phoneNumber, user }, ctx);
  return {
    status: true,
    token: current.session.token as string | null,
    user: toOutput(ctx.context.schema, "user", user),
  };
}

/** A number nobody has: signs it up with `signUpOnVerification`, or leaves it (null) without. */
async function signUp(ctx: VerifyContext, options: ResolvedPhoneNumberOptions): Promise<PhoneUser | null> {
  const setup = options.signUpOnVerification;
  if (!setup) return null;
  const { phoneNumber, code: _code, disableSession: _d, updatePhoneNumber: _u, ...rest } = ctx.body;
  const fields = parseInput(ctx.context, "user", rest, "create");
  return ctx.context.internalAdapter.createUser(
    {
      ...fields,
      email: setup.getTempEmail(phoneNumber),
      name: setup.getTempName ? setup.getTempName(phoneNumber) : phoneNumber,
      phoneNumber,
      phoneNumberVerified: true,
    } as Partial<User> & { email: string; name: string },
    ctx,
    { method: "phone-number" },
  );
}
