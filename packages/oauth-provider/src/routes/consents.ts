import { APIError, endpoint, sessionMiddleware, type AuthContext, type SessionWithUser } from "@latchkey/core";
import * as v from "valibot";
import { findClient } from "../clients.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import type { OAuthConsentRow } from "../schema.js";

const notFound = (description = "no consent") => oauthError("NOT_FOUND", "not_found", description);

/** The consent row, when it is the caller's: 404 when unknown, a bare 401 when another user's. */
async function ownConsent(ctx: AuthContext, session: SessionWithUser, id: string): Promise<OAuthConsentRow> {
  if (!id) throw notFound("missing id parameter");
  const consent = await ctx.adapter.findOne<OAuthConsentRow & Record<string, unknown>>({ model: "oauthConsent", where: [{ field: "id", value: id }] });
  if (!consent) throw notFound();
  if (consent.userId !== session.user.id) throw new APIError("UNAUTHORIZED");
  return consent;
}

/** `GET /oauth2/get-consent?id=`: one of the caller's consents. */
export function getConsentEndpoint() {
  return endpoint("/oauth2/get-consent", { method: "GET", query: v.object({ id: v.string() }), use: [sessionMiddleware] }, (ctx) =>
    ownConsent(ctx.context, ctx.context.session, ctx.query.id),
  );
}

/** `GET /oauth2/get-consents`: the caller's consents. */
export function getConsentsEndpoint() {
  return endpoint("/oauth2/get-consents", { method: "GET", use: [sessionMiddleware] }, (ctx) =>
    ctx.context.adapter.findMany({ model: "oauthConsent", where: [{ field: "userId", value: ctx.context.session.user.id }] }),
  );
}

/** `POST /oauth2/update-consent`: changes the scopes of a consent, within the client's (or the provider's) scopes. */
export function updateConsentEndpoint(options: ResolvedOAuthOptions) {
  const body = v.object({ id: v.string(), update: v.object({ scopes: v.array(v.string()) }) });
  return endpoint("/oauth2/update-consent", { method: "POST", body, use: [sessionMiddleware] }, async (ctx) => {
    const consent = await ownConsent(ctx.context, ctx.context.session, ctx.body.id);
    const client = await findClient(ctx.context, consent.clientId);
    if (!client) throw notFound("client not found");
    const allowed = client.scopes ?? options.scopes;
    if (!ctx.body.update.scopes.every((scope) => allowed.includes(scope))) {
      // The reference names the client's owner here.
      throw oauthError("BAD_REQUEST", "invalid_request", `unable to provide scopes to ${client.referenceId ?? client.userId}`);
    }
    return ctx.context.adapter.update({
      model: "oauthConsent",
      where: [{ field: "id", value: consent.id }],
      update: { scopes: ctx.body.update.scopes, updatedAt: new Date(Math.floor(Date.now() / 1000) * 1000) },
    });
  });
}

/** `POST /oauth2/delete-consent`: withdraws one of the caller's consents (the next authorization asks again). */
export function deleteConsentEndpoint() {
  return endpoint("/oauth2/delete-consent", { method: "POST", body: v.object({ id: v.string() }), use: [sessionMiddleware] }, async (ctx) => {
    const consent = await ownConsent(ctx.context, ctx.context.session, ctx.body.id);
    await ctx.context.adapter.delete({ model: "oauthConsent", where: [{ field: "id", value: consent.id }] });
    return null;
  });
}
