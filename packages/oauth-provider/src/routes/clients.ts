import { APIError, endpoint, generateRandomString, sessionMiddleware, type AuthContext, type SessionWithUser } from "@latchkey/core";
import * as v from "valibot";
import { assertNotTrusted, ownsClient, sessionReference } from "../client-owner.js";
import { assertClientPrivilege } from "../client-privileges.js";
import { clientToWire } from "../client-wire.js";
import { findClient } from "../clients.js";
import { NO_STORE, oauthError, withNoStore } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import type { OAuthClientRow } from "../schema.js";
import { verifySignedQuery } from "../signed-query.js";
import { storedClientSecret } from "../token-hash.js";

const notFound = () => oauthError("NOT_FOUND", "not_found", "client not found");

/** The client, when the session owns it (`ownsClient`): 404 when unknown, 401 (no body) when another's. */
async function ownedClient(ctx: AuthContext, options: ResolvedOAuthOptions, session: SessionWithUser, clientId: string): Promise<OAuthClientRow> {
  const client = await findClient(ctx, clientId);
  if (!client) throw notFound();
  // The reference answers a bare 401 for a client of someone else (or of no owner).
  if (!(await ownsClient(options, session, client))) throw new APIError("UNAUTHORIZED");
  return client;
}

/** Client information without the secret (its stored hash never leaves the server). */
const withoutSecret = (client: OAuthClientRow): Record<string, unknown> => clientToWire(client);

const byClientId = v.object({ client_id: v.string() });

/** `GET /oauth2/get-client?client_id=`: one of the caller's clients. */
export function getClientEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/get-client", { method: "GET", query: byClientId, use: [sessionMiddleware] }, async (ctx) => {
    await assertClientPrivilege(ctx, options, ctx.context.session, "read");
    return withoutSecret(await ownedClient(ctx.context, options, ctx.context.session, ctx.query.client_id));
  });
}

/** `GET /oauth2/get-clients`: the caller's clients. */
export function getClientsEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/get-clients", { method: "GET", use: [sessionMiddleware] }, async (ctx) => {
    await assertClientPrivilege(ctx, options, ctx.context.session, "list");
    // With `clientReference`, the clients of the session's reference; else the user's own.
    const reference = await sessionReference(options, ctx.context.session);
    const rows = await ctx.context.adapter.findMany<OAuthClientRow & Record<string, unknown>>({
      model: "oauthClient",
      where: [reference ? { field: "referenceId", value: reference } : { field: "userId", value: ctx.context.session.user.id }],
    });
    return rows.map(withoutSecret);
  });
}

/** What a login or consent page may show of any enabled client: its display fields only. */
async function publicClient(ctx: AuthContext, clientId: string): Promise<Record<string, unknown>> {
  const client = await findClient(ctx, clientId);
  if (!client || client.disabled) throw notFound();
  const { name, uri, contacts, icon, tos, policy } = client;
  return clientToWire({ id: client.id, clientId: client.clientId, name, uri, contacts, icon, tos, policy, redirectUris: [] });
}

/** `GET /oauth2/public-client?client_id=`: the display fields of an enabled client, for a signed-in user. */
export function getPublicClientEndpoint() {
  return endpoint("/oauth2/public-client", { method: "GET", query: byClientId, use: [sessionMiddleware] }, (ctx) =>
    publicClient(ctx.context, ctx.query.client_id),
  );
}

/**
 * `POST /oauth2/public-client-prelogin` `{ client_id, oauth_query }`: the same before sign-in,
 * for a login page holding a valid signed request (`allowPublicClientPrelogin`).
 */
export function getPublicClientPreloginEndpoint(options: ResolvedOAuthOptions) {
  const body = v.object({ client_id: v.string(), oauth_query: v.optional(v.string()) });
  return endpoint("/oauth2/public-client-prelogin", { method: "POST", body }, async (ctx) => {
    if (!options.allowPublicClientPrelogin) throw new APIError("BAD_REQUEST");
    const signed = ctx.body.oauth_query ? await verifySignedQuery(ctx.body.oauth_query, ctx.context.secret) : null;
    if (!signed) throw new APIError("UNAUTHORIZED", { error: "invalid_signature" });
    return publicClient(ctx.context, ctx.body.client_id);
  });
}

/** `POST /oauth2/delete-client`: deletes one of the caller's clients (its tokens and consents go with it). */
export function deleteClientEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/delete-client", { method: "POST", body: byClientId, use: [sessionMiddleware] }, async (ctx) => {
    await assertClientPrivilege(ctx, options, ctx.context.session, "delete");
    assertNotTrusted(options, ctx.body.client_id);
    const client = await ownedClient(ctx.context, options, ctx.context.session, ctx.body.client_id);
    await ctx.context.adapter.delete({ model: "oauthClient", where: [{ field: "clientId", value: client.clientId }] });
    return null;
  });
}

/** `POST /oauth2/client/rotate-secret`: a new secret for one of the caller's confidential clients, shown once, `no-store`. */
export function rotateSecretEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/client/rotate-secret", { method: "POST", body: byClientId, use: [sessionMiddleware] }, async (ctx) => {
    try {
      for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
      await assertClientPrivilege(ctx, options, ctx.context.session, "rotate");
      assertNotTrusted(options, ctx.body.client_id);
      const client = await ownedClient(ctx.context, options, ctx.context.session, ctx.body.client_id);
      if (client.tokenEndpointAuthMethod === "none" || !client.clientSecret) {
        throw oauthError("BAD_REQUEST", "invalid_client", "secret rotation is only available for clients using client_secret authentication");
      }
      const secret = options.generateClientSecret?.() || generateRandomString(32, "a-z", "A-Z");
      const updated = await ctx.context.adapter.update<OAuthClientRow & Record<string, unknown>>({
        model: "oauthClient",
        where: [{ field: "clientId", value: client.clientId }],
        update: { clientSecret: await storedClientSecret(options, secret, ctx.context), updatedAt: new Date(Math.floor(Date.now() / 1000) * 1000) },
      });
      if (!updated) throw oauthError("INTERNAL_SERVER_ERROR", "invalid_client", "unable to update client");
      return clientToWire(updated, (options.prefix?.clientSecret ?? "") + secret);
    } catch (error) {
      throw withNoStore(error);
    }
  });
}
