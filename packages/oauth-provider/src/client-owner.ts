import { APIError, type SessionWithUser } from "@latchkey/core";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow } from "./schema.js";

/** The owner `clientReference` names for this session (an organisation, a team), if the option is set. */
export async function sessionReference(options: ResolvedOAuthOptions, session: SessionWithUser): Promise<string | undefined> {
  return options.clientReference ? (await options.clientReference({ user: session.user, session: session.session })) || undefined : undefined;
}

/**
 * Whether the session may manage `client`, as the reference decides: a client of a user belongs
 * to that user; one of a reference to the session whose `clientReference` names it; no other.
 */
export async function ownsClient(options: ResolvedOAuthOptions, session: SessionWithUser, client: OAuthClientRow): Promise<boolean> {
  if (client.userId) return client.userId === session.user.id;
  if (!client.referenceId || !options.clientReference) return false;
  return client.referenceId === (await sessionReference(options, session));
}

/** `cachedTrustedClients` are configured by the operator: the management routes refuse to change them (row 135). */
export function assertNotTrusted(options: ResolvedOAuthOptions, clientId: string): void {
  if (options.cachedTrustedClients?.has(clientId)) {
    throw new APIError("FORBIDDEN", { error: "invalid_client", error_description: "trusted clients must be updated manually" });
  }
}
