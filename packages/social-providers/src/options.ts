import type { ProviderOptions, TokenEndpointAuth } from "@latchkey/core";

/**
 * Options every provider of this package accepts: the reference's `ProviderOptions` plus
 * `endpoints`, which replaces any of the provider's URLs by name (a regional host, a proxy,
 * or an emulator on 127.0.0.1 in tests). Each provider's README entry lists its endpoint names.
 */
export interface SocialProviderOptions<
  Profile extends object = Record<string, unknown>,
> extends ProviderOptions<Profile> {
  /** Endpoint URLs by name, e.g. `{ token: "https://…", userInfo: "https://…" }`. */
  endpoints?: Partial<Record<string, string>> | undefined;
  /** Token endpoint client authentication. @default the provider's (most: client_secret_post) */
  tokenEndpointAuth?: TokenEndpointAuth | undefined;
}

/** The client id a request names: the first of a list (all are accepted ID-token audiences). */
export function primaryClientId(clientId: string | string[] | undefined): string {
  const id = Array.isArray(clientId) ? clientId[0] : clientId;
  if (!id) throw new TypeError("A social provider needs a clientId.");
  return id;
}

/** Every configured client id, for ID-token audience checks. */
export const clientIds = (clientId: string | string[] | undefined): string[] =>
  (Array.isArray(clientId) ? clientId : [clientId]).filter((id): id is string => !!id);
