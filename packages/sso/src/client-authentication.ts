import { referenceError } from "./error-codes.js";
import type { ResolvedSSOOptions } from "./options.js";
import type { TokenEndpointAuthentication } from "./schema.js";

/** Whether a private key for `private_key_jwt` can be had for the provider (`defaultSSO[].privateKey` or `resolvePrivateKey`). */
export const hasPrivateKeySource = (options: ResolvedSSOOptions, providerId: string): boolean =>
  Boolean(options.resolvePrivateKey) ||
  options.defaultSSO.some((p) => p.providerId === providerId && Boolean(p.privateKey));

/**
 * The reference's checks of a provider's client authentication before it is stored: a
 * secret for the `client_secret_*` methods, a key source for `private_key_jwt` (400, message only).
 */
export function checkClientAuthentication(
  options: ResolvedSSOOptions,
  providerId: string,
  config: {
    clientSecret?: string | undefined;
    tokenEndpointAuthentication?: TokenEndpointAuthentication | undefined;
  },
): void {
  if (config.tokenEndpointAuthentication !== "private_key_jwt") {
    if (!config.clientSecret) throw referenceError("BAD_REQUEST", "CLIENT_SECRET_REQUIRED");
    return;
  }
  if (!hasPrivateKeySource(options, providerId)) throw referenceError("BAD_REQUEST", "PRIVATE_KEY_REQUIRED");
}
