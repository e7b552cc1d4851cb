import { APIError, endpoint, getSessionFromRequest, type EndpointContext } from "@latchkey/core";
import * as v from "valibot";
import { findClient } from "../clients.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { RESOURCE_SIGNING_ALGORITHMS, type OAuthResourceInput, type ResourceAction } from "../resource-options.js";
import { identifierProblem, isUniqueViolation, MAX_IDENTIFIER_LENGTH, POLICY_COLUMNS, resourceRow, type OAuthResourceRow } from "../resource-store.js";
import { quoted } from "../echo.js";
import { insertRow } from "../token-rows.js";
import { signingPinProblem, type SigningPin } from "../signing-pin.js";

const seconds = v.nullish(v.pipe(v.number(), v.integer(), v.minValue(1)));
/** A JSON object (valibot's record also takes arrays). */
const jsonObject = v.nullish(
  v.custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "Invalid input: expected record"),
);
/** Identifiers are unique columns (VARCHAR(191) on MySQL, as Latchkey makes them); longer ones are refused, never a 500. */
const identifier = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_IDENTIFIER_LENGTH));
const resourceFields = {
  name: v.optional(v.string()),
  accessTokenTtl: seconds,
  refreshTokenTtl: seconds,
  signingAlgorithm: v.nullish(v.picklist(RESOURCE_SIGNING_ALGORITHMS)),
  signingKeyId: v.nullish(v.string()),
  allowedScopes: v.nullish(v.array(v.string())),
  customClaims: jsonObject,
  dpopBoundAccessTokensRequired: v.optional(v.boolean()),
  disabled: v.optional(v.boolean()),
  metadata: jsonObject,
};
const createBody = v.object({ identifier, ...resourceFields });
const updateBody = v.object({ identifier: v.optional(identifier), ...resourceFields });

/** A path segment as given over HTTP is percent-encoded; `auth.api` callers pass it plain. */
function pathParam(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? "");
  } catch {
    return value ?? "";
  }
}

/** A signed-in caller that `resourcePrivileges` (when set) allows: else a bare 401. */
async function allowed(ctx: EndpointContext, options: ResolvedOAuthOptions, action: ResourceAction, resourceId?: string): Promise<void> {
  const session = await getSessionFromRequest(ctx);
  if (!session) throw new APIError("UNAUTHORIZED");
  if (!options.resourcePrivileges) return;
  const ok = await options.resourcePrivileges({
    headers: ctx.headers,
    action,
    user: session.user as typeof session.user & Record<string, unknown>,
    session: session.session as typeof session.session & Record<string, unknown>,
    resourceId,
  });
  if (!ok) throw new APIError("UNAUTHORIZED");
}

/** 400 `invalid_request` naming why the jwt plugin could not sign with the pin (this route is server-only). */
async function assertPinSignable(ctx: EndpointContext, pin: SigningPin): Promise<void> {
  const problem = await signingPinProblem(ctx.context, pin);
  if (problem) throw oauthError("BAD_REQUEST", "invalid_request", `access tokens for this resource cannot be signed: ${problem}`);
}

const notFound = (what: string, id: string) => oauthError("NOT_FOUND", "not_found", `${what} ${quoted(id)} not found`);

/** The row (after the configured resources are seeded): 404 `not_found` when there is none. */
async function existing(ctx: EndpointContext, options: ResolvedOAuthOptions, identifier: string): Promise<OAuthResourceRow> {
  await options.resourceStore.seedOnce(ctx.context);
  const row = await ctx.context.adapter.findOne<OAuthResourceRow>({ model: "oauthResource", where: [{ field: "identifier", value: identifier }] });
  if (!row) throw notFound("resource", identifier);
  return row;
}

/** `POST /admin/oauth2/resources` (server-only): 201 and the new row; 400 `invalid_target` for a bad identifier. */
export function adminCreateResourceEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/resources", { method: "POST", body: createBody, serverOnly: true }, async (ctx) => {
    await allowed(ctx, options, "create");
    const input = ctx.body as OAuthResourceInput;
    const problem = await identifierProblem(options, input.identifier);
    if (problem) throw oauthError("BAD_REQUEST", "invalid_target", problem.replace(input.identifier, quoted(input.identifier)));
    await assertPinSignable(ctx, input);
    let created: OAuthResourceRow;
    try {
      created = await insertRow<OAuthResourceRow>(ctx.context, ctx.context.adapter, "oauthResource", resourceRow(input, new Date()));
    } catch (error) {
      if (isUniqueViolation(error)) throw oauthError("BAD_REQUEST", "invalid_request", `resource ${quoted(input.identifier)} already exists`);
      throw error;
    }
    options.resourceStore.invalidate(created.identifier);
    ctx.status = 201;
    return created;
  });
}

/** `GET /admin/oauth2/resources` (server-only): every row. */
export function adminListResourcesEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/resources", { method: "GET", serverOnly: true }, async (ctx) => {
    await allowed(ctx, options, "list");
    await options.resourceStore.seedOnce(ctx.context);
    return ctx.context.adapter.findMany<OAuthResourceRow>({ model: "oauthResource" });
  });
}

/** `GET /admin/oauth2/resources/:identifier` (server-only): the row, 404 `not_found`. */
export function adminGetResourceEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/resources/:identifier", { method: "GET", serverOnly: true }, async (ctx) => {
    const identifier = pathParam(ctx.params.identifier);
    await allowed(ctx, options, "read", identifier);
    return existing(ctx, options, identifier);
  });
}

/** `PATCH /admin/oauth2/resources/:identifier` (server-only): writes the members given; the identifier never changes. */
export function adminUpdateResourceEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/resources/:identifier", { method: "PATCH", body: updateBody, serverOnly: true }, async (ctx) => {
    const identifier = pathParam(ctx.params.identifier);
    await allowed(ctx, options, "update", identifier);
    const before = await existing(ctx, options, identifier);
    const body = ctx.body as Record<string, unknown>;
    const update: Record<string, unknown> = { updatedAt: new Date() };
    for (const column of POLICY_COLUMNS) if (Object.hasOwn(body, column)) update[column] = body[column];
    await assertPinSignable(ctx, { ...before, ...update } as SigningPin);
    await ctx.context.adapter.update({ model: "oauthResource", where: [{ field: "identifier", value: identifier }], update });
    options.resourceStore.invalidate(identifier);
    return existing(ctx, options, identifier);
  });
}

/** `DELETE /admin/oauth2/resources/:identifier` (server-only): the row and its client links; tokens naming it go inactive. */
export function adminDeleteResourceEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/resources/:identifier", { method: "DELETE", serverOnly: true }, async (ctx) => {
    const identifier = pathParam(ctx.params.identifier);
    await allowed(ctx, options, "delete", identifier);
    await existing(ctx, options, identifier);
    await ctx.context.adapter.transaction(async (trx) => {
      await trx.deleteMany({ model: "oauthClientResource", where: [{ field: "resourceId", value: identifier }] });
      await trx.delete({ model: "oauthResource", where: [{ field: "identifier", value: identifier }] });
    });
    options.resourceStore.invalidate(identifier);
    return { deleted: true };
  });
}

/** `POST /admin/oauth2/resources/:identifier/clients/:client_id` (server-only): links once; a second link answers `alreadyLinked`. */
export function adminLinkClientResourceEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/resources/:identifier/clients/:client_id", { method: "POST", serverOnly: true }, async (ctx) => {
    const resourceId = pathParam(ctx.params.identifier);
    const clientId = pathParam(ctx.params.client_id);
    await allowed(ctx, options, "link", resourceId);
    await existing(ctx, options, resourceId);
    if (!(await findClient(ctx.context, clientId))) throw notFound("client", clientId);
    try {
      await insertRow(ctx.context, ctx.context.adapter, "oauthClientResource", { clientId, resourceId, createdAt: new Date() });
    } catch (error) {
      if (isUniqueViolation(error)) return { linked: true, alreadyLinked: true };
      throw error;
    }
    return { linked: true };
  });
}

/** `DELETE /admin/oauth2/resources/:identifier/clients/:client_id` (server-only): removes the link (none is no error). */
export function adminUnlinkClientResourceEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/resources/:identifier/clients/:client_id", { method: "DELETE", serverOnly: true }, async (ctx) => {
    const resourceId = pathParam(ctx.params.identifier);
    const clientId = pathParam(ctx.params.client_id);
    await allowed(ctx, options, "unlink", resourceId);
    await ctx.context.adapter.deleteMany({
      model: "oauthClientResource",
      where: [{ field: "clientId", value: clientId }, { field: "resourceId", value: resourceId }],
    });
    return { unlinked: true };
  });
}

/** The admin resource routes, by `auth.api` name (the reference's names). */
export function adminResourceEndpoints(options: ResolvedOAuthOptions) {
  return {
    adminCreateOAuthResource: adminCreateResourceEndpoint(options),
    adminListOAuthResources: adminListResourcesEndpoint(options),
    adminGetOAuthResource: adminGetResourceEndpoint(options),
    adminUpdateOAuthResource: adminUpdateResourceEndpoint(options),
    adminDeleteOAuthResource: adminDeleteResourceEndpoint(options),
    adminLinkClientResource: adminLinkClientResourceEndpoint(options),
    adminUnlinkClientResource: adminUnlinkClientResourceEndpoint(options),
  };
}
