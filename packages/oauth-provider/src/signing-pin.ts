import { findService, type AuthContext } from "@latchkey/core";
import { JWT_SIGNER } from "@latchkey/jwt";
import { jwtDisabled } from "./jwt-disabled.js";
import { oauthError } from "./oauth-error.js";
import type { ResourceSigningAlgorithm } from "./resource-options.js";
import { quoted } from "./echo.js";

/** A resource's signing pin (`oauthResource.signingAlgorithm` / `signingKeyId`). */
export interface SigningPin {
  signingAlgorithm?: string | null | undefined;
  signingKeyId?: string | null | undefined;
}

/**
 * Why the jwt plugin could not sign an access token with `pin` (the named key is absent,
 * expired or of another algorithm; no key of the algorithm exists or can be made), or
 * undefined. Nothing to check without a pin, or without the jwt plugin (opaque tokens).
 */
export async function signingPinProblem(ctx: AuthContext, pin: SigningPin): Promise<string | undefined> {
  if (!pin.signingAlgorithm && !pin.signingKeyId) return undefined;
  if (jwtDisabled(ctx)) return undefined;
  return findService(ctx, JWT_SIGNER)?.pinProblem({
    signingAlgorithm: (pin.signingAlgorithm ?? undefined) as ResourceSigningAlgorithm | undefined,
    signingKeyId: pin.signingKeyId ?? undefined,
  });
}

/**
 * At authorize and token time: refuses a request whose resources pin a key the jwt plugin
 * cannot sign with, before a code or a token is spent. The reference signs anyway and answers
 * a bare 500; RFC 8707 §2 `invalid_target` tells the client this resource cannot be served.
 * The cause (key ids, algorithms) goes to the log, not the response.
 */
export async function assertSignable(ctx: AuthContext, pin: SigningPin, resources: string[]): Promise<void> {
  const problem = await signingPinProblem(ctx, pin);
  if (!problem) return;
  ctx.logger.error(`oauth-provider: cannot sign access tokens for ${resources.join(", ")}: ${problem}`);
  throw oauthError("BAD_REQUEST", "invalid_target", `requested resource ${resources.map(quoted).join(", ")} cannot be issued a token: its signing key is unavailable`);
}
