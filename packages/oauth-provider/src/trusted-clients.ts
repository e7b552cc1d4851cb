import type { AuthContext } from "@latchkey/core";
import type { ResolvedOAuthOptions } from "./options.js";
import { providerOptions } from "./provider-options.js";
import type { OAuthClientRow } from "./schema.js";

// One cache per provider instance (its resolved options), as the reference keeps one.
const caches = new WeakMap<ResolvedOAuthOptions, Map<string, OAuthClientRow>>();

/**
 * The in-memory cache holding `clientId` when it is one of `cachedTrustedClients`, else
 * undefined. A cached client is read from the database once and kept for the process's life
 * (its row is then not read again: such clients are changed by the operator, with a restart).
 */
export function trustedClientCache(ctx: AuthContext, clientId: string): Map<string, OAuthClientRow> | undefined {
  const options = providerOptions(ctx);
  if (!options?.cachedTrustedClients?.has(clientId)) return undefined;
  let cache = caches.get(options);
  if (!cache) caches.set(options, (cache = new Map()));
  return cache;
}
