import { symmetricDecrypt, symmetricEncrypt, type EndpointContext } from "@latchkey/core";
import type { FoundProvider } from "./oidc-provider.js";
import type { ResolvedSSOOptions } from "./options.js";

/** `symmetricEncrypt` output: the `$ba$<version>$` envelope, or nonce ‖ ciphertext ‖ tag as hex (at least 40 bytes). */
const looksEncrypted = (value: string): boolean =>
  value.startsWith("$ba$") || (value.length >= 80 && value.length % 2 === 0 && /^[0-9a-f]+$/.test(value));

/**
 * A client secret as it is stored: with `encryptClientSecret`, XChaCha20-Poly1305 under the
 * auth secret (core's format, as `account.encryptOAuthTokens` stores tokens); else as given.
 */
export async function storedClientSecret(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  secret: string | undefined,
): Promise<string | undefined> {
  if (!secret || !options.encryptClientSecret) return secret;
  return symmetricEncrypt({ key: ctx.context.secret, data: secret });
}

/**
 * The provider with its client secret in clear for the token request. Rows written before the
 * option was turned on (or by the reference) hold the secret in clear and are read as they are.
 */
export async function withPlainClientSecret(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  found: FoundProvider,
): Promise<FoundProvider> {
  const stored = found.config.clientSecret;
  if (!options.encryptClientSecret || !stored || !looksEncrypted(stored)) return found;
  try {
    const clientSecret = await symmetricDecrypt({ key: ctx.context.secret, data: stored });
    return { ...found, config: { ...found.config, clientSecret } };
  } catch {
    // A secret that only looks like ciphertext (long lowercase hex) is a plain one.
    return found;
  }
}
