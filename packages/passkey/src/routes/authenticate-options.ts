import { endpoint, getSessionFromRequest } from "@latchkey/core";
import { generateAuthenticationOptions } from "@simplewebauthn/server";
import { startChallenge } from "../challenge.js";
import { resolveExtensions } from "../extensions.js";
import type { ResolvedPasskeyOptions } from "../options.js";
import { descriptor, userPasskeys } from "../passkey-store.js";
import { relyingPartyID } from "../relying-party.js";

/**
 * `GET /passkey/generate-authenticate-options`: WebAuthn request options. A signed-in user's
 * passkeys are listed in `allowCredentials`; without a session the list is left out, so the
 * browser offers discoverable credentials (and conditional UI can autofill them).
 */
export function generatePasskeyAuthenticationOptions(options: ResolvedPasskeyOptions) {
  return endpoint("/passkey/generate-authenticate-options", { method: "GET", requireHeaders: true }, async (ctx) => {
    const session = await getSessionFromRequest(ctx);
    const passkeys = session ? await userPasskeys(ctx, session.user.id) : [];
    const request = await generateAuthenticationOptions({
      rpID: relyingPartyID(ctx, options),
      userVerification: "preferred",
      extensions: await resolveExtensions(options.authentication?.extensions, ctx),
      ...(passkeys.length ? { allowCredentials: passkeys.map(descriptor) } : {}),
    });
    await startChallenge(ctx, options, {
      type: "authentication",
      expectedChallenge: request.challenge,
      userData: { id: session?.user.id || "" },
    });
    return request;
  });
}
