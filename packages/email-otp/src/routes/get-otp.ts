import { APIError, endpoint } from "@latchkey/core";
import * as v from "valibot";
import { OTP_TYPES, type ResolvedEmailOTPOptions } from "../options.js";
import { otpIdentifier, readOTPValue, recoverOTP } from "../otp-store.js";

/**
 * Server-only `auth.api.getVerificationOTP({ query: { email, type } })`: the live code in plain
 * text, `{ otp: null }` when there is none; 400 when codes are stored hashed.
 */
export const getVerificationOTP = (options: ResolvedEmailOTPOptions) =>
  endpoint(
    "/email-otp/get-verification-otp",
    { method: "GET", query: v.object({ email: v.string(), type: v.picklist(OTP_TYPES) }), serverOnly: true },
    async (ctx) => {
      const email = ctx.query.email.toLowerCase();
      const row = await ctx.context.internalAdapter.findVerificationValue(otpIdentifier(ctx.query.type, email));
      if (!row || row.expiresAt.getTime() < Date.now()) return { otp: null as string | null };
      const how = options.storeOTP;
      if (how === "hashed" || (typeof how === "object" && "hash" in how)) {
        throw new APIError("BAD_REQUEST", { message: "OTP is hashed, cannot return the plain text OTP" });
      }
      return { otp: await recoverOTP(ctx.context, options, readOTPValue(row.value).stored) };
    },
  );
