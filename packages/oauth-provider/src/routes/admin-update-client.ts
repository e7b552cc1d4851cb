import { APIError, endpoint, getSessionFromRequest, type EndpointContext, type SessionWithUser } from "@latchkey/core";
import * as v from "valibot";
import { assertNotTrusted, ownsClient } from "../client-owner.js";
import { assertClientPrivilege } from "../client-privileges.js";
import { clientToWire, RESERVED } from "../client-wire.js";
import { authMethodOf, findClient } from "../clients.js";
import { quoted } from "../echo.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import type { ClientMetadata } from "../registration-body.js";
import { checkMetadata, metadataColumns, withDefaults } from "../registration.js";
import { userUpdateEntries } from "./update-client.js";
import { oauthProviderSchema, type OAuthClientRow } from "../schema.js";

/**
 * The members an operator may change: the user's list plus the operator settings. Other members
 * (`token_endpoint_auth_method`, `jwks`, `require_pkce`, …) are dropped, as the reference's schema
 * drops them.
 */
const body = v.object({
  client_id: v.string(),
  update: v.object({
    ...userUpdateEntries,
    client_credentials_scopes: v.optional(v.array(v.pipe(v.string(), v.trim(), v.minLength(1)))),
    // Accepted and not stored: the reference writes it to a column its table does not have.
    client_secret_expires_at: v.optional(v.union([v.string(), v.number()])),
    skip_consent: v.optional(v.boolean()),
    enable_end_session: v.optional(v.boolean()),
    dpop_bound_access_tokens: v.optional(v.boolean()),
    metadata: v.optional(
      v.custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "metadata must be an object"),
    ),
  }),
});

type Update = v.InferOutput<typeof body>["update"];
const USER_SCOPES = new Set(["openid", "profile", "email", "offline_access"]);
const invalid = (description: string) => oauthError("BAD_REQUEST", "invalid_client_metadata", description);

/** The reference's checks of `client_credentials_scopes` against the client's final grants and method. */
function checkCredentialScopes(options: ResolvedOAuthOptions, scopes: string[], grants: string[], method: string | undefined): void {
  if (scopes.length === 0) return;
  if (!grants.includes("client_credentials")) throw invalid("client_credentials_scopes requires the client_credentials grant");
  if (method === "none") throw invalid("public clients cannot be assigned client_credentials scopes");
  const refused = scopes.filter((scope) => !options.scopes.includes(scope) || USER_SCOPES.has(scope));
  if (refused.length) throw oauthError("BAD_REQUEST", "invalid_scope", `The following client_credentials scopes are invalid: ${refused.map(quoted).join(", ")}`);
}

/** `configure-client-credentials-scopes` needs `clientPrivileges` to say yes; without the option nobody may. */
async function assertScopePrivilege(ctx: EndpointContext, options: ResolvedOAuthOptions, session: SessionWithUser): Promise<void> {
  if (!options.clientPrivileges) throw new APIError("UNAUTHORIZED");
  await assertClientPrivilege(ctx, options, session, "configure-client-credentials-scopes");
}

/** Names a `metadata` key may not take: wire members, columns and the reference's few extras. */
const NOT_METADATA = new Set([...RESERVED, ...Object.keys(oauthProviderSchema.oauthClient.fields), "expiresAt", "public", "type"]);

/** Extra `metadata` keys as the reference stores them: JSON text without reserved names, nothing when none is left. */
function metadataText(extra: Record<string, unknown> | undefined): string | undefined {
  if (!extra) return undefined;
  const kept = Object.fromEntries(Object.entries(extra).filter(([key]) => !NOT_METADATA.has(key)));
  return Object.keys(kept).length ? JSON.stringify(kept) : undefined;
}

const answer = (client: OAuthClientRow) => ({ ...clientToWire(client), client_credentials_scopes: [...(client.clientCredentialsScopes ?? [])] });

/**
 * Server-only `PATCH /admin/oauth2/update-client` (`auth.api.adminUpdateOAuthClient({ body, headers })`):
 * the user's update plus `client_credentials_scopes`, `skip_consent`, `enable_end_session`,
 * `dpop_bound_access_tokens` and `metadata`. As in the reference it acts for a signed-in owner
 * (the request's session); another owner's client may only get `client_credentials_scopes`, and
 * only when `clientPrivileges` allows `configure-client-credentials-scopes`.
 */
export function adminUpdateClientEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/update-client", { method: "PATCH", body, serverOnly: true }, async (ctx) => {
    const session = await getSessionFromRequest(ctx);
    if (!session) throw new APIError("UNAUTHORIZED");
    await assertClientPrivilege(ctx, options, session, "update");
    assertNotTrusted(options, ctx.body.client_id);
    const client = await findClient(ctx.context, ctx.body.client_id);
    if (!client) throw oauthError("NOT_FOUND", "not_found", "client not found");
    const { client_credentials_scopes: rawScopes, ...given } = ctx.body.update;
    const updates = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Omit<Update, "client_credentials_scopes">;
    const owns = await ownsClient(options, session, client);
    const crossOwner = !owns && rawScopes !== undefined && Object.keys(updates).length === 0;
    if (!owns && !crossOwner) throw new APIError("UNAUTHORIZED");
    if (crossOwner) await assertScopePrivilege(ctx, options, session);
    if (Object.keys(updates).length === 0 && rawScopes === undefined) return answer(client);

    const { skip_consent, enable_end_session, metadata, client_secret_expires_at: _ignored, ...registered } = updates;
    const merged = withDefaults({ ...(clientToWire(client) as ClientMetadata), ...(registered as ClientMetadata) });
    const grants = merged.grant_types;
    const method = authMethodOf(client);
    const scopes = rawScopes === undefined ? undefined : [...new Set(rawScopes.filter(Boolean))];
    if (scopes !== undefined) {
      checkCredentialScopes(options, scopes, grants, method);
      if (scopes.length > 0 && !crossOwner) await assertScopePrivilege(ctx, options, session);
    }
    checkMetadata(ctx.context, options, merged, "managed");
    const columns: Record<string, unknown> = { ...metadataColumns(registered as ClientMetadata) };
    if (registered.scope !== undefined) columns.scopes = registered.scope.split(" ");
    if (skip_consent !== undefined) columns.skipConsent = skip_consent;
    if (enable_end_session !== undefined) columns.enableEndSession = enable_end_session;
    const stored = metadataText(metadata);
    if (stored !== undefined) columns.metadata = stored;
    if (!grants.includes("client_credentials") || method === "none") columns.clientCredentialsScopes = [];
    else if (scopes !== undefined) columns.clientCredentialsScopes = scopes;
    const updated = await ctx.context.adapter.update<OAuthClientRow & Record<string, unknown>>({
      model: "oauthClient",
      where: [{ field: "clientId", value: client.clientId }],
      update: { ...columns, updatedAt: new Date(Math.floor(Date.now() / 1000) * 1000) },
    });
    if (!updated) throw oauthError("INTERNAL_SERVER_ERROR", "invalid_client", "unable to update client");
    return answer(updated);
  });
}
