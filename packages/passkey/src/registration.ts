import {
  base64Encode,
  getClientIP,
  setSessionCookie,
  type EndpointContext,
  type SessionWithUser,
  type User,
} from "@latchkey/core";
import type { RegistrationResponseJSON, VerifiedRegistrationResponse } from "@simplewebauthn/server";
import type { StoredChallenge } from "./challenge.js";
import { runCallback } from "./callbacks.js";
import { PASSKEY_ERROR_CODES } from "./error-codes.js";
import type { PasskeyRegistrationUser, ResolvedPasskeyOptions } from "./options.js";
import type { Passkey } from "./schema.js";

const failedRegistration = () => PASSKEY_ERROR_CODES.fail("FAILED_TO_VERIFY_REGISTRATION", "INTERNAL_SERVER_ERROR");

/** What a verified registration needs to be stored. */
export interface VerifiedRegistration {
  challenge: StoredChallenge;
  verification: VerifiedRegistrationResponse & { verified: true };
  response: RegistrationResponseJSON;
  session: SessionWithUser | null;
}

/**
 * The user and name the passkey is stored under: the challenge's user, unless
 * `registration.afterVerification` moves it (never away from the signed-in user) or names it.
 */
async function target(
  ctx: EndpointContext,
  options: ResolvedPasskeyOptions,
  { challenge, verification, response, session }: VerifiedRegistration,
): Promise<{ userId: string; name: string | undefined }> {
  const { userData, context } = challenge;
  const user: PasskeyRegistrationUser = {
    id: userData.id,
    name: userData.name || userData.id,
    displayName: userData.displayName,
  };
  let userId = user.id;
  let name = (ctx.body as { name?: string }).name || undefined;
  const after = options.registration?.afterVerification;
  if (after) {
    const result = await runCallback(ctx, "registration.afterVerification", failedRegistration, () =>
      after({ ctx, verification, user, clientData: response, context: context ?? null }),
    );
    if (result?.userId !== undefined) {
      if (typeof result.userId !== "string" || !result.userId) {
        throw PASSKEY_ERROR_CODES.fail("RESOLVED_USER_INVALID", "BAD_REQUEST");
      }
      if (session && result.userId !== session.user.id) {
        throw PASSKEY_ERROR_CODES.fail("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY", "UNAUTHORIZED");
      }
      userId = result.userId;
    }
    name ||= (typeof result?.name === "string" ? result.name.trim() : "") || undefined;
  }
  if (!userId) throw PASSKEY_ERROR_CODES.fail("RESOLVED_USER_INVALID", "BAD_REQUEST");
  return { userId, name };
}

/**
 * Stores a verified registration as the reference does: `publicKey` is the COSE key in
 * standard base64, `transports` the browser's list joined by commas ("" when absent). With
 * `createSession` the user must exist and a session is opened; should that fail, the passkey
 * is removed again, so no half-done registration stays behind.
 */
export async function persistRegistration(
  ctx: EndpointContext,
  options: ResolvedPasskeyOptions,
  registration: VerifiedRegistration,
): Promise<{ passkey: Passkey; session: SessionWithUser | null }> {
  const { userId, name } = await target(ctx, options, registration);
  const wantsSession = (ctx.body as { createSession?: boolean }).createSession === true;
  const auth = ctx.context;
  const user = wantsSession ? await auth.internalAdapter.findUserById(userId) : null;
  // Reference: 500 USER_NOT_FOUND (a resolveUser naming a user that does not exist is a server bug).
  if (wantsSession && !user) throw PASSKEY_ERROR_CODES.fail("USER_NOT_FOUND", "INTERNAL_SERVER_ERROR");
  const { aaguid, credential, credentialDeviceType, credentialBackedUp } = registration.verification.registrationInfo;
  const transports = registration.response.response?.transports;
  const passkey = await auth.internalAdapter.create<Passkey>(
    "passkey",
    {
      name: name ?? null,
      userId,
      credentialID: credential.id,
      publicKey: base64Encode(credential.publicKey),
      counter: credential.counter,
      deviceType: credentialDeviceType,
      transports: joinTransports(transports),
      backedUp: credentialBackedUp,
      createdAt: new Date(),
      aaguid,
    },
    ctx,
  );
  // A database hook refused the row.
  if (!passkey) throw PASSKEY_ERROR_CODES.fail("FAILED_TO_VERIFY_REGISTRATION", "BAD_REQUEST");
  if (!user) return { passkey, session: null };
  const session = await openSession(ctx, user as User);
  if (!session) {
    await auth.adapter.delete({ model: "passkey", where: [{ field: "id", value: passkey.id }] });
    throw PASSKEY_ERROR_CODES.fail("UNABLE_TO_CREATE_SESSION", "INTERNAL_SERVER_ERROR");
  }
  return { passkey, session };
}

/**
 * The browser's transports as the column stores them: joined by commas, "" when none. They are
 * a hint outside the signed data, so a value that is not a list of strings is taken as none
 * (the reference answers 500 when `join` fails on it: DIVERGENCES.md row 87).
 */
function joinTransports(transports: unknown): string {
  return Array.isArray(transports) ? transports.filter((t): t is string => typeof t === "string" && t !== "").join(",") : "";
}

/** Opens a session for `user` with the request's address and agent, and sets its cookie. */
export async function openSession(ctx: EndpointContext, user: User): Promise<SessionWithUser | null> {
  const auth = ctx.context;
  const session = await auth.internalAdapter.createSession(
    user.id,
    false,
    { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") },
    ctx,
  );
  if (!session) return null;
  const withUser = { session, user };
  await setSessionCookie(ctx, withUser);
  return withUser;
}
