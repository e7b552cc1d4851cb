import { endpoint, freshSessionMiddleware, generateRandomString, type EndpointMiddleware } from "@latchkey/core";
import { generateRegistrationOptions, type AuthenticatorAttachment } from "@simplewebauthn/server";
import * as v from "valibot";
import { startChallenge } from "../challenge.js";
import { resolveExtensions, SUPPORTED_ALGORITHM_IDS } from "../extensions.js";
import type { ResolvedPasskeyOptions } from "../options.js";
import { descriptor, userPasskeys } from "../passkey-store.js";
import { resolveRegistrationUser } from "../registration-user.js";
import { relyingPartyID, relyingPartyName } from "../relying-party.js";

const ATTACHMENTS: readonly string[] = ["platform", "cross-platform"];

/** `platform` or `cross-platform`, refused with the reference's (zod enum) wording. */
const attachment = v.pipe(
  v.string(),
  v.check((value) => ATTACHMENTS.includes(value), 'Invalid option: expected one of "platform"|"cross-platform"'),
  v.transform((value) => value as AuthenticatorAttachment),
);

const query = v.optional(
  v.object({
    authenticatorAttachment: v.optional(attachment),
    name: v.optional(v.string()),
    context: v.optional(v.string()),
  }),
);

/**
 * `GET /passkey/generate-register-options`: WebAuthn creation options for the session's user
 * (or, with `registration.requireSession: false`, the one `resolveUser` names), attestation
 * `none`, the user's passkeys excluded. The challenge is stored and its cookie set.
 */
export function generatePasskeyRegistrationOptions(options: ResolvedPasskeyOptions) {
  const use: EndpointMiddleware[] = options.requireSession ? [freshSessionMiddleware] : [];
  return endpoint(
    "/passkey/generate-register-options",
    { method: "GET", query, use, requireHeaders: true },
    async (ctx) => {
      const context = ctx.query?.context ?? null;
      const user = await resolveRegistrationUser(ctx, options, context);
      const existing = await userPasskeys(ctx, user.id);
      const creation = await generateRegistrationOptions({
        rpName: relyingPartyName(ctx, options),
        rpID: relyingPartyID(ctx, options),
        // A fresh random user handle per ceremony, 32 characters of [a-z0-9] (reference).
        userID: new TextEncoder().encode(generateRandomString(32, "a-z", "0-9")),
        userName: ctx.query?.name || user.name || user.id,
        userDisplayName: user.displayName || user.name || user.id,
        attestationType: "none",
        excludeCredentials: existing.map(descriptor),
        authenticatorSelection: {
          residentKey: "preferred",
          userVerification: "preferred",
          ...options.authenticatorSelection,
          ...(ctx.query?.authenticatorAttachment ? { authenticatorAttachment: ctx.query.authenticatorAttachment } : {}),
        },
        extensions: await resolveExtensions(options.registration?.extensions, ctx),
        supportedAlgorithmIDs: SUPPORTED_ALGORITHM_IDS,
      });
      await startChallenge(ctx, options, {
        type: "registration",
        expectedChallenge: creation.challenge,
        userData: { id: user.id, name: user.name, displayName: user.displayName },
        context,
      });
      return creation;
    },
  );
}
