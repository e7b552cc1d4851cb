import { endpoint } from "@latchkey/core";
import * as v from "valibot";
import { siweError } from "../error-codes.js";
import { isValidNonce, NONCE_LIFETIME_SECONDS, nonceIdentifier } from "../nonce.js";
import type { SIWEPluginOptions } from "../options.js";

/** The legacy wallet fields clients before 1.1 send, accepted (and ignored) on request. */
const legacyFields = {
  walletAddress: v.optional(v.unknown()),
  address: v.optional(v.unknown()),
  chainId: v.optional(v.unknown()),
};

/**
 * `POST /siwe/nonce` and its alias `POST /siwe/get-nonce`: no body (or `{}`; unknown fields
 * refused unless `acceptLegacyWalletFields`). Issues a nonce before the wallet is known,
 * stores it for 15 minutes as verification `siwe:<nonce>` and answers `{ nonce }`.
 */
export function nonceEndpoint(path: "/siwe/nonce" | "/siwe/get-nonce", options: SIWEPluginOptions) {
  const body = v.optional(v.strictObject(options.acceptLegacyWalletFields ? legacyFields : {}));
  return endpoint(path, { method: "POST", body }, async (ctx) => {
    const nonce = await options.getNonce();
    if (!isValidNonce(nonce)) throw siweError(500, "SIWE_INVALID_NONCE");
    await ctx.context.internalAdapter.createVerificationValue(
      {
        identifier: nonceIdentifier(nonce),
        value: nonce,
        expiresAt: new Date(Date.now() + NONCE_LIFETIME_SECONDS * 1000),
      },
      ctx,
    );
    return { nonce };
  });
}
