import { base64Encode, hmacSha256, type AuthContext } from "@latchkey/core";
import { findClient } from "./clients.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow } from "./schema.js";

/**
 * OIDC Core §8.1: the sector of a pairwise client is the host of its first redirect URI (the
 * reference's rule; registration keeps every redirect URI of such a client on one host, since
 * `sector_identifier_uri` is not served).
 */
function sectorOf(client: OAuthClientRow): string {
  const uri = client.redirectUris?.[0];
  if (!uri) throw new TypeError(`client ${client.clientId} has no redirect URI for its sector identifier`);
  return new URL(uri).host;
}

/**
 * The `sub` a client sees for a user: the user id, or for a `pairwise` client (with
 * `pairwiseSecret` set) base64(HMAC-SHA256(pairwiseSecret, "<sector>.<user id>")), as the
 * reference computes it, so one user has the same subject at every client of a sector and
 * unlinkable ones across sectors (OIDC Core §8.1).
 */
export async function subjectFor(_ctx: AuthContext, options: ResolvedOAuthOptions, userId: string, client: OAuthClientRow): Promise<string> {
  if (client.subjectType !== "pairwise" || !options.pairwiseSecret) return userId;
  return base64Encode(await hmacSha256(options.pairwiseSecret, `${sectorOf(client)}.${userId}`));
}

/**
 * `payload` with `sub` as the issuing client sees it (the `client_id` or `azp` member names the
 * client); unchanged without `pairwiseSecret`, for inactive answers and for unknown clients.
 */
export async function presentedSubject<T extends Record<string, unknown>>(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  payload: T,
  known?: OAuthClientRow,
): Promise<T> {
  if (!options.pairwiseSecret || !payload.active || typeof payload.sub !== "string") return payload;
  const clientId = typeof payload.client_id === "string" ? payload.client_id : typeof payload.azp === "string" ? payload.azp : undefined;
  if (!clientId) return payload;
  const client = known?.clientId === clientId ? known : await findClient(ctx, clientId);
  return client ? { ...payload, sub: await subjectFor(ctx, options, payload.sub, client) } : payload;
}
