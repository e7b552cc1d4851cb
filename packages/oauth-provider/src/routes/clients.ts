import { APIError, endpoint, generateRandomString, sessionMiddleware, type AuthContext, type SessionWithUser } from "@latchkey/core";
import * as v from "valibot";
import { clientToWire } from "../client-wire.js";
import { findClient } from "../clients.js";
import { NO_STORE, oauthError, withNoStore } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import type { OAuthClientRow } from "../schema.js";
import { storedClientSecret } from "../token-hash.js";

const notFound = () => oauthError("NOT_FOUND", "not_found", "client not found");

/** The client, when the session's user owns it: 404 when unknown, 401 (no body) when another's. */
async function ownedClient(ctx: AuthContext, session: SessionWithUser, clientId: string): Promise<OAuthClientRow> {
  const client = await findClient(ctx, clientId);
  if (!client) throw notFound();
  // The reference answers a bare 401 for a client of someone else (or of no user).
  if (!client.userId || client.userId !== session.user.id) throw new APIError("UNAUTHORIZED");
  return client;
}

/** Client information without the secret (its stored hash never leaves the server). */
const withoutSecret = (client: OAuthClientRow): Record<string, unknown> => clientToWire(client);

const byClientId = v.object({ client_id: v.string() });

/** `GET /oauth2/get-client?client_id=`: one of the caller's clients. */
export function getClientEndpoint() {
  return endpoint("/oauth2/get-client", { method: "GET", query: byClientId, use: [sessionMiddleware] }, async (ctx) =>
    withoutSecret(await ownedClient(ctx.context, ctx.context.session, ctx.query.client_id)),
  );
}

/** `GET /oauth2/get-clients`: the caller's clients. */
export function getClientsEndpoint() {
  return endpoint("/oauth2/get-clients", { method: "GET", use: [sessionMiddleware] }, async (ctx) => {
    const rows = await ctx.context.adapter.findMany<OAuthClientRow & Record<string, unknown>>({
      model: "oauthClient",
      where: [{ field: "userId", value: ctx.context.session.user.id }],
    });
    return rows.map(withoutSecret);
  });
}

/** `GET /oauth2/public-client?client_id=`: what a consent page shows of any enabled client. */
export function getPublicClientEndpoint() {
  return endpoint("/oauth2/public-client", { method: "GET", query: byClientId, use: [sessionMiddleware] }, async (ctx) => {
    const client = await findClient(ctx.context, ctx.query.client_id);
    if (!client || client.disabled) throw notFound();
    const { clientId, name, uri, contacts, icon, tos, policy } = client;
    return clientToWire({ id: client.id, clientId, name, uri, contacts, icon, tos, policy, redirectUris: [] });
  });
}

/** `POST /oauth2/delete-client`: deletes one of the caller's clients (its tokens and consents go with it). */
export function deleteClientEndpoint() {
  return endpoint("/oauth2/delete-client", { method: "POST", body: byClientId, use: [sessionMiddleware] }, async (ctx) => {
    const client = await ownedClient(ctx.context, ctx.context.session, ctx.body.client_id);
    await ctx.context.adapter.delete({ model: "oauthClient", where: [{ field: "clientId", value: client.clientId }] });
    return null;
  });
}

/** `POST /oauth2/client/rotate-secret`: a new secret for one of the caller's confidential clients, shown once, `no-store`. */
export function rotateSecretEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/client/rotate-secret", { method: "POST", body: byClientId, use: [sessionMiddleware] }, async (ctx) => {
    try {
      for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
      const client = await ownedClient(ctx.context, ctx.context.session, ctx.body.client_id);
      if (client.tokenEndpointAuthMethod === "none" || !client.clientSecret) {
        throw oauthError("BAD_REQUEST", "invalid_client", "secret rotation is only available for clients using client_secret authentication");
      }
      const secret = options.generateClientSecret?.() || generateRandomString(32, "a-z", "A-Z");
      const updated = await ctx.context.adapter.update<OAuthClientRow & Record<string, unknown>>({
        model: "oauthClient",
        where: [{ field: "clientId", value: client.clientId }],
        update: { clientSecret: await storedClientSecret(options, secret), updatedAt: new Date(Math.floor(Date.now() / 1000) * 1000) },
      });
      if (!updated) throw oauthError("INTERNAL_SERVER_ERROR", "invalid_client", "unable to update client");
      return clientToWire(updated, (options.prefix?.clientSecret ?? "") + secret);
    } catch (error) {
      throw withNoStore(error);
    }
  });
}
