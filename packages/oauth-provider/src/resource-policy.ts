import { APIError, type AuthContext } from "@latchkey/core";
import { userInfoURL } from "./issuer.js";
import { oauthError } from "./oauth-error.js";
import type { ResourceSigningAlgorithm } from "./resource-options.js";
import type { OAuthResourceRow, ResourceStore } from "./resource-store.js";
import { quoted } from "./echo.js";
import { assertSignable } from "./signing-pin.js";

/** What the resources of a request ask of the tokens issued for it. */
export interface ResourcePolicy {
  /** The `aud` of the access token (the resources, plus userinfo for OpenID grants); none without resources. */
  audience: string[] | undefined;
  /** The requested scopes narrowed to every resource's `allowedScopes`. */
  scopes: string[];
  accessTokenTtl: number | null;
  refreshTokenTtl: number | null;
  signingAlgorithm: ResourceSigningAlgorithm | undefined;
  signingKeyId: string | undefined;
  /** The resources' `customClaims`, later resources winning. */
  claims: Record<string, unknown>;
  dpopRequired: boolean;
}

/** The reference checks at most this many audiences of a token (one lookup each). */
const MAX_AUDIENCES = 64;

const smallest = (values: Array<number | null>): number | null =>
  values.reduce<number | null>((least, value) => (value == null ? least : least === null ? value : Math.min(least, value)), null);

/**
 * RFC 8707 §2-3 at authorize and token: every requested resource (the userinfo URL aside) must be
 * an enabled `oauthResource` row, linked to the client when `enforcePerClientResources` (default
 * true); scopes narrow to each row's `allowedScopes` (`invalid_scope` when none is left); TTLs
 * take the smallest; one signing pin at most (a JWS has one signature). Errors are `APIError`s.
 */
export async function resolveResourcePolicy(
  ctx: AuthContext,
  store: ResourceStore,
  request: { resources: string[] | undefined; clientId: string; scopes: string[] },
): Promise<ResourcePolicy> {
  const none: ResourcePolicy = {
    audience: undefined, scopes: [...request.scopes], accessTokenTtl: null, refreshTokenTtl: null,
    signingAlgorithm: undefined, signingKeyId: undefined, claims: {}, dpopRequired: false,
  };
  if (!request.resources?.length) return none;
  const identifiers = [...new Set(request.resources)];
  const userinfo = userInfoURL(ctx);
  const rows: OAuthResourceRow[] = [];
  for (const identifier of identifiers) {
    if (identifier === userinfo) continue;
    const row = await store.get(ctx, identifier);
    if (!row) throw oauthError("BAD_REQUEST", "invalid_target", `requested resource ${quoted(identifier)} is not configured`);
    if (row.disabled) throw oauthError("BAD_REQUEST", "invalid_target", `requested resource ${quoted(identifier)} is disabled`);
    rows.push(row);
  }
  if ((store.options.enforcePerClientResources ?? true) && rows.length) {
    const linked = await linkedResources(ctx, request.clientId);
    const unlinked = rows.filter((row) => !linked.has(row.identifier));
    if (unlinked.length) {
      throw oauthError("BAD_REQUEST", "invalid_target", `client is not linked to resource(s) ${unlinked.map((row) => quoted(row.identifier)).join(", ")}`);
    }
  }
  let scopes = [...request.scopes];
  for (const row of rows) {
    if (row.allowedScopes == null) continue;
    const allowed = new Set(row.allowedScopes);
    scopes = scopes.filter((scope) => allowed.has(scope));
    if (!scopes.length) throw oauthError("BAD_REQUEST", "invalid_scope", `none of the requested scopes are allowed for resource ${quoted(row.identifier)}`);
  }
  const algorithms = new Set(rows.flatMap((row) => (row.signingAlgorithm ? [row.signingAlgorithm] : [])));
  const keyIds = new Set(rows.flatMap((row) => (row.signingKeyId ? [row.signingKeyId] : [])));
  if (algorithms.size > 1 || keyIds.size > 1) {
    const what = algorithms.size > 1 ? "signingAlgorithm" : "signingKeyId";
    throw oauthError("BAD_REQUEST", "invalid_request", `multi-resource request has conflicting ${what} pins; a single JWS signature cannot satisfy both`);
  }
  const pin = { signingAlgorithm: [...algorithms][0], signingKeyId: [...keyIds][0] };
  const pinned = rows.filter((row) => row.signingAlgorithm || row.signingKeyId).map((row) => row.identifier);
  if (pinned.length) await assertSignable(ctx, pin, pinned);
  const audience = [...new Set(request.scopes.includes("openid") ? [...identifiers, userinfo] : identifiers)];
  return {
    audience,
    scopes,
    accessTokenTtl: smallest(rows.map((row) => row.accessTokenTtl)),
    refreshTokenTtl: smallest(rows.map((row) => row.refreshTokenTtl)),
    signingAlgorithm: ([...algorithms][0] as ResourceSigningAlgorithm | undefined) ?? undefined,
    signingKeyId: [...keyIds][0],
    claims: Object.assign({}, ...rows.map((row) => (row.customClaims && typeof row.customClaims === "object" ? row.customClaims : {}))),
    dpopRequired: rows.some((row) => row.dpopBoundAccessTokensRequired === true),
  };
}

/** The identifiers `clientId` is linked to (`oauthClientResource`). */
export async function linkedResources(ctx: AuthContext, clientId: string): Promise<Set<string>> {
  const links = await ctx.adapter.findMany<{ resourceId: string }>({ model: "oauthClientResource", where: [{ field: "clientId", value: clientId }] });
  return new Set(links.map((link) => link.resourceId));
}

/**
 * Whether a token's audiences are all known: the userinfo URL, or an `oauthResource` row
 * (disabled ones too: disabling stops new tokens; deleting the row ends the issued ones).
 */
export async function audiencesKnown(ctx: AuthContext, store: ResourceStore, audiences: string[]): Promise<boolean> {
  if (audiences.length > MAX_AUDIENCES) return false;
  const userinfo = userInfoURL(ctx);
  const lookups = [...new Set(audiences.filter((aud) => aud !== userinfo))];
  return (await Promise.all(lookups.map((aud) => store.get(ctx, aud)))).every(Boolean);
}

/**
 * RFC 7662 §2.1/§4: the caller may introspect a token it was issued, or one naming a resource it
 * is linked to (a resource server's own client). Otherwise the token answers inactive.
 */
export async function mayIntrospect(ctx: AuthContext, callerId: string, issuedTo: string, audiences: string[]): Promise<boolean> {
  if (callerId === issuedTo) return true;
  const resources = audiences.filter((aud) => aud !== userInfoURL(ctx));
  if (!resources.length) return false;
  const linked = await linkedResources(ctx, callerId);
  return resources.some((resource) => linked.has(resource));
}

/** The stored `customClaims` of a token's resources (issued tokens keep them, disabled or not). */
export async function resourceClaims(ctx: AuthContext, store: ResourceStore, audiences: string[]): Promise<Record<string, unknown>> {
  const rows = await Promise.all(audiences.filter((aud) => aud !== userInfoURL(ctx)).map((aud) => store.get(ctx, aud)));
  return Object.assign({}, ...rows.map((row) => (row?.customClaims && typeof row.customClaims === "object" ? row.customClaims : {})));
}

/** The policy check of an authorization request as an OAuth error to redirect with, or null when it passes. */
export async function resourceRefusal(
  ctx: AuthContext,
  options: { resourceStore: ResourceStore },
  request: { resources: string[]; clientId: string; scopes: string[] },
): Promise<{ error: string; description: string } | null> {
  if (!request.resources.length) return null;
  try {
    await resolveResourcePolicy(ctx, options.resourceStore, request);
    return null;
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const body = (error.body ?? {}) as { error?: string; error_description?: string };
    return { error: body.error ?? "invalid_target", description: body.error_description ?? "requested resource invalid" };
  }
}
