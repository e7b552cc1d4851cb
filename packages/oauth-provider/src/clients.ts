import type { AuthContext } from "@latchkey/core";
import type { OAuthClientRow } from "./schema.js";
import { trustedClientCache } from "./trusted-clients.js";
import type { ClientDiscovery } from "./extension-types.js";
import { clientDiscoveries, extensionContext } from "./extensions.js";

/** The client row with this `clientId`, or null; `cachedTrustedClients` are read once per process, then from memory. */
export async function findClient(ctx: AuthContext, clientId: string): Promise<OAuthClientRow | null> {
  const discoveries = clientDiscoveries(ctx).filter((discovery) => discovery.matches(clientId));
  if (discoveries.length) return discoveredClient(ctx, clientId, discoveries);
  const trusted = trustedClientCache(ctx, clientId);
  const cached = trusted?.get(clientId);
  if (cached) return { ...cached };
  const row = await ctx.adapter.findOne<OAuthClientRow & Record<string, unknown>>({
    model: "oauthClient",
    where: [{ field: "clientId", value: clientId }],
  });
  if (row && trusted) trusted.set(clientId, { ...row });
  return row;
}

/** The stored row of `clientId`, read directly. */
const storedClient = (ctx: AuthContext, clientId: string) =>
  ctx.adapter.findOne<OAuthClientRow & Record<string, unknown>>({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });

/**
 * An extension's client discovery (the reference's order): each matching source in turn gets
 * the stored row and answers the client or null; null for a row the source owns
 * (`clientDiscoveryId`) fails closed, so a revoked external client is not served from the table.
 */
async function discoveredClient(ctx: AuthContext, clientId: string, discoveries: ClientDiscovery[]): Promise<OAuthClientRow | null> {
  const existing = await storedClient(ctx, clientId);
  for (const discovery of discoveries) {
    const resolved = await discovery.resolve(extensionContext(ctx), clientId, existing);
    if (resolved) return resolved;
    if (existing?.clientDiscoveryId === discovery.id) return null;
  }
  return existing;
}

/** Spec, client rules 1: public only when the registered method is `none`; absent means `client_secret_basic`. */
export const authMethodOf = (client: OAuthClientRow): string => client.tokenEndpointAuthMethod ?? "client_secret_basic";

/**
 * Whether the client may use `grant`. Absent `grantTypes` mean `["authorization_code"]`
 * (registration default); a client of `authorization_code` may refresh (the reference's rule).
 */
export function clientAllowsGrant(client: OAuthClientRow, grant: string): boolean {
  const grants = client.grantTypes?.length ? client.grantTypes : ["authorization_code"];
  if (grant === "refresh_token" && grants.includes("authorization_code")) return true;
  return grants.includes(grant);
}

/** Whether the client registered the `refresh_token` grant itself (RFC 7591 §2 `grant_types`). */
export const registeredForRefresh = (client: OAuthClientRow): boolean => Boolean(client.grantTypes?.includes("refresh_token"));

/**
 * Why PKCE is required for an authorization request, or false (the reference's messages):
 * always for public clients; for `offline_access` unless an OpenID request sends a nonce
 * (spec rule 7); and for every client unless it was registered with `requirePKCE: false`.
 */
export function pkceRequirement(client: OAuthClientRow, scopes: string[], nonce: string | undefined): string | false {
  if (client.tokenEndpointAuthMethod === "none") return "pkce is required for public clients";
  const oidcNonce = scopes.includes("openid") && typeof nonce === "string" && nonce.length > 0;
  if (scopes.includes("offline_access") && !oidcNonce) return "pkce or OIDC nonce is required when requesting offline_access scope";
  if (client.requirePKCE ?? true) return "pkce is required for this client";
  return false;
}

/** The client's `metadata` column as an object (adapters hand JSON back parsed or as text). */
export function clientMetadata(client: OAuthClientRow): Record<string, unknown> | undefined {
  const raw = client.metadata;
  if (!raw) return undefined;
  if (typeof raw === "object") return raw as Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(String(raw));
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
