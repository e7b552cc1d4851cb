import type { EndpointContext } from "@latchkey/core";
import type { AuthenticationExtensionsClientInputs } from "@simplewebauthn/server";
import type { PasskeyExtensionsResolver } from "./options.js";

/** The extensions option for this request: as given, or what its function returns. */
export async function resolveExtensions(
  extensions: PasskeyExtensionsResolver | undefined,
  ctx: EndpointContext,
): Promise<AuthenticationExtensionsClientInputs | undefined> {
  if (!extensions) return undefined;
  return typeof extensions === "function" ? extensions({ ctx }) : extensions;
}

/**
 * The algorithms offered at registration: EdDSA, ES256, RS256. Named here rather than left to
 * `@simplewebauthn/server`, whose 14.x adds ML-DSA-44 on runtimes with post-quantum support:
 * a key of that kind could not be verified by the reference's 13.x, and both sides must accept
 * every stored passkey.
 */
export const SUPPORTED_ALGORITHM_IDS = [-8, -7, -257];
