import { APIError, base64Decode, endpoint, toOutput, type EndpointContext, type User } from "@latchkey/core";
import {
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type VerifiedAuthenticationResponse,
} from "@simplewebauthn/server";
import * as v from "valibot";
import { runCallback } from "../callbacks.js";
import { redeemChallenge } from "../challenge.js";
import { PASSKEY_ERROR_CODES } from "../error-codes.js";
import type { ResolvedPasskeyOptions } from "../options.js";
import { storeCounter, storedTransports } from "../passkey-store.js";
import { openSession } from "../registration.js";
import { expectedOrigin, relyingPartyID } from "../relying-party.js";
import type { Passkey } from "../schema.js";

/** A JSON object, as the reference's `z.record` takes it (an array is refused). */
const jsonObject = v.custom<Record<string, unknown>>(
  (input) => typeof input === "object" && input !== null && !Array.isArray(input),
  "Invalid input: expected record",
);

const body = v.object({ response: jsonObject });

const failed = (): APIError => PASSKEY_ERROR_CODES.fail("AUTHENTICATION_FAILED", "UNAUTHORIZED");
const refused = (): APIError => PASSKEY_ERROR_CODES.fail("AUTHENTICATION_FAILED", "BAD_REQUEST");

/** The stored passkey the assertion names by its credential id; 401 `PASSKEY_NOT_FOUND` otherwise. */
async function findPasskey(ctx: EndpointContext, credentialID: unknown): Promise<Passkey> {
  // A non-string id can name no credential; the reference passes it to the adapter as is
  // and answers 500 (DIVERGENCES.md row 84).
  const found =
    typeof credentialID === "string" && credentialID
      ? await ctx.context.adapter.findOne<Passkey & Record<string, unknown>>({
          model: "passkey",
          where: [{ field: "credentialID", value: credentialID }],
        })
      : null;
  if (!found) throw PASSKEY_ERROR_CODES.fail("PASSKEY_NOT_FOUND", "UNAUTHORIZED");
  return found;
}

/**
 * `POST /passkey/verify-authentication` `{ response }`: redeems the authentication challenge
 * (once), finds the passkey by the assertion's credential id, verifies signature, origin, RP id
 * and counter, stores the new counter atomically and signs the passkey's user in: `{ session,
 * user }` and the session cookie.
 */
export function verifyPasskeyAuthentication(options: ResolvedPasskeyOptions) {
  return endpoint("/passkey/verify-authentication", { method: "POST", body, requireHeaders: true }, async (ctx) => {
    const origin = expectedOrigin(ctx, options);
    // The reference's answer: a message and no code.
    if (!origin) throw new APIError("BAD_REQUEST", { message: "origin missing" });
    const { expectedChallenge } = await redeemChallenge(ctx, options, "authentication");
    const response = ctx.body.response as unknown as AuthenticationResponseJSON;
    const passkey = await findPasskey(ctx, response.id);
    let verification: VerifiedAuthenticationResponse;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: relyingPartyID(ctx, options),
        credential: {
          id: passkey.credentialID,
          publicKey: base64Decode(passkey.publicKey),
          counter: passkey.counter,
          transports: storedTransports(passkey.transports),
        },
        requireUserVerification: false,
      });
    } catch (error) {
      // A bad signature, origin, RP id, a counter that did not rise, or a malformed assertion:
      // 400 AUTHENTICATION_FAILED as the reference (which logs it at error level).
      ctx.context.logger.info("passkey assertion refused", error instanceof Error ? error.message : error);
      throw refused();
    }
    if (!verification.verified) throw failed();
    const after = options.authentication?.afterVerification;
    if (after) {
      await runCallback(ctx, "authentication.afterVerification", refused, () => after({ ctx, verification, clientData: response }));
    }
    if (!(await storeCounter(ctx, passkey, verification.authenticationInfo.newCounter))) throw failed();
    const user = await ctx.context.internalAdapter.findUserById(passkey.userId);
    if (!user) throw PASSKEY_ERROR_CODES.fail("USER_NOT_FOUND", "INTERNAL_SERVER_ERROR");
    const signedIn = await openSession(ctx, user as User);
    if (!signedIn) throw PASSKEY_ERROR_CODES.fail("UNABLE_TO_CREATE_SESSION", "INTERNAL_SERVER_ERROR");
    const { schema } = ctx.context;
    return { session: toOutput(schema, "session", signedIn.session), user: toOutput(schema, "user", user) };
  });
}
