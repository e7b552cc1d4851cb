import { APIError, endpoint, sessionMiddleware } from "@latchkey/core";
import * as v from "valibot";
import { assertNotTrusted, ownsClient } from "../client-owner.js";
import { assertClientPrivilege } from "../client-privileges.js";
import { clientToWire } from "../client-wire.js";
import { findClient } from "../clients.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import type { ClientMetadata } from "../registration-body.js";
import { checkMetadata, metadataColumns, withDefaults } from "../registration.js";

const text = v.optional(v.string());
const list = v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1)));

/** The members a user may change (the reference's list); the rest of a registration is fixed. */
export const userUpdateEntries = {
  redirect_uris: list,
  scope: text,
  client_name: text,
  client_uri: text,
  logo_uri: text,
  contacts: list,
  tos_uri: text,
  policy_uri: text,
  software_id: text,
  software_version: text,
  software_statement: text,
  post_logout_redirect_uris: list,
  backchannel_logout_uri: text,
  backchannel_logout_session_required: v.optional(v.boolean()),
  application_type: v.optional(v.picklist(["web", "native"])),
  grant_types: list,
  response_types: v.optional(v.array(v.picklist(["code"]))),
};

const body = v.object({ client_id: v.string(), update: v.object(userUpdateEntries) });

/**
 * `POST /oauth2/update-client` `{ client_id, update }`: changes one of the caller's clients. The
 * merged registration is validated as a registration is (spec, client rules 5: a client stored
 * without `applicationType` is validated as `web`); the secret is never shown.
 */
export function updateClientEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/update-client", { method: "POST", body, use: [sessionMiddleware] }, async (ctx) => {
    await assertClientPrivilege(ctx, options, ctx.context.session, "update");
    const metadata = Object.fromEntries(Object.entries(ctx.body.update).filter(([, value]) => value !== undefined)) as ClientMetadata;
    assertNotTrusted(options, ctx.body.client_id);
    const client = await findClient(ctx.context, ctx.body.client_id);
    if (!client) throw oauthError("NOT_FOUND", "not_found", "client not found");
    if (!(await ownsClient(options, ctx.context.session, client))) throw new APIError("UNAUTHORIZED");
    if (Object.keys(metadata).length === 0) return clientToWire(client);
    const merged = withDefaults({ ...(clientToWire(client) as ClientMetadata), ...metadata });
    checkMetadata(ctx.context, options, merged, "managed");
    const columns: Record<string, unknown> = { ...metadataColumns(metadata) };
    if (metadata.scope !== undefined) columns.scopes = metadata.scope.split(" ").filter(Boolean);
    const grants = merged.grant_types;
    // Client credentials scopes only stay with a confidential client of that grant.
    if (!grants.includes("client_credentials") || client.tokenEndpointAuthMethod === "none") columns.clientCredentialsScopes = [];
    const updated = await ctx.context.adapter.update<typeof client & Record<string, unknown>>({
      model: "oauthClient",
      where: [{ field: "clientId", value: client.clientId }],
      update: { ...columns, updatedAt: new Date(Math.floor(Date.now() / 1000) * 1000) },
    });
    if (!updated) throw oauthError("INTERNAL_SERVER_ERROR", "invalid_client", "unable to update client");
    return clientToWire(updated);
  });
}
