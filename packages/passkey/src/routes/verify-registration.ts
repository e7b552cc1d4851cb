import { endpoint, freshSessionMiddleware, toOutput, type EndpointMiddleware } from "@latchkey/core";
import {
  verifyRegistrationResponse,
  type RegistrationResponseJSON,
  type VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import * as v from "valibot";
import { redeemChallenge } from "../challenge.js";
import { PASSKEY_ERROR_CODES } from "../error-codes.js";
import type { ResolvedPasskeyOptions } from "../options.js";
import { persistRegistration } from "../registration.js";
import { registrationSession } from "../registration-user.js";
import { expectedOrigin, relyingPartyID } from "../relying-party.js";

const body = v.object({
  // Left open as in the reference: the verifier judges the credential, and refuses junk.
  response: v.unknown(),
  name: v.optional(v.pipe(v.string(), v.trim())),
  createSession: v.optional(v.boolean()),
});

/**
 * `POST /passkey/verify-registration` `{ response, name?, createSession? }`: redeems the
 * registration challenge, verifies the attestation and stores the passkey. Answers the row, or
 * with `createSession` the row plus `{ session, user }` and the session cookie.
 */
export function verifyPasskeyRegistration(options: ResolvedPasskeyOptions) {
  const use: EndpointMiddleware[] = options.requireSession ? [freshSessionMiddleware] : [];
  return endpoint(
    "/passkey/verify-registration",
    { method: "POST", body, use, requireHeaders: true },
    async (ctx) => {
      const fail = () => PASSKEY_ERROR_CODES.fail("FAILED_TO_VERIFY_REGISTRATION", "BAD_REQUEST");
      const origin = expectedOrigin(ctx, options);
      if (!origin) throw fail();
      const challenge = await redeemChallenge(ctx, options, "registration");
      const session = await registrationSession(ctx, options);
      if (session && challenge.userData.id !== session.user.id) {
        throw PASSKEY_ERROR_CODES.fail("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY", "UNAUTHORIZED");
      }
      const response = ctx.body.response as RegistrationResponseJSON;
      let verification: VerifiedRegistrationResponse;
      try {
        verification = await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge.expectedChallenge,
          expectedOrigin: origin,
          expectedRPID: relyingPartyID(ctx, options),
          requireUserVerification: false,
        });
      } catch (error) {
        // The reference answers 500 here (its catch-all); a response the verifier refuses is
        // the client's error, so 400 with the same code (DIVERGENCES.md row 83).
        ctx.context.logger.info("passkey registration refused", error instanceof Error ? error.message : error);
        throw fail();
      }
      if (!verification.verified) throw fail();
      const stored = await persistRegistration(ctx, options, { challenge, verification, response, session });
      const { schema } = ctx.context;
      const passkey = toOutput(schema, "passkey", stored.passkey);
      if (!stored.session) return passkey;
      return {
        ...passkey,
        session: toOutput(schema, "session", stored.session.session),
        user: toOutput(schema, "user", stored.session.user),
      };
    },
  );
}
