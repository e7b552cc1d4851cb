import type { AuthContext } from "@latchkey/core";
import { noStoreError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import { quoted } from "./echo.js";
import { insertRow } from "./token-rows.js";

/**
 * The resources a new client is linked to: `clientRegistrationDefaultResources` for every
 * registration, plus what a dynamic registration's `resources` member asks for within
 * `clientRegistrationAllowedResources` (RFC 7591 extension). Each must exist and be enabled;
 * otherwise 400 `invalid_target`, nothing written.
 */
export async function registrationResources(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  requested: readonly string[],
): Promise<string[]> {
  const defaults = options.clientRegistrationDefaultResources ?? [];
  const allowed = new Set([...defaults, ...(options.clientRegistrationAllowedResources ?? [])]);
  const refused = requested.find((identifier) => !allowed.has(identifier));
  if (refused !== undefined) {
    throw noStoreError("BAD_REQUEST", "invalid_target", `requested resource ${quoted(refused)} is not allowed for client registration`);
  }
  const resources = [...new Set([...defaults, ...requested])];
  for (const identifier of resources) {
    const row = await options.resourceStore.get(ctx, identifier);
    if (!row) throw noStoreError("BAD_REQUEST", "invalid_target", `requested resource ${quoted(identifier)} does not exist`);
    if (row.disabled) throw noStoreError("BAD_REQUEST", "invalid_target", `requested resource ${quoted(identifier)} is disabled`);
  }
  return resources;
}

/** Writes the links of a client just created; on failure the client is removed again (nothing half-registered). */
export async function linkNewClient(ctx: AuthContext, clientId: string, resources: string[]): Promise<void> {
  try {
    const createdAt = new Date();
    for (const resourceId of resources) {
      await insertRow(ctx, ctx.adapter, "oauthClientResource", { clientId, resourceId, createdAt });
    }
  } catch (error) {
    await ctx.adapter.deleteMany({ model: "oauthClientResource", where: [{ field: "clientId", value: clientId }] });
    await ctx.adapter.delete({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });
    throw error;
  }
}
