import { findClient } from "../clients.js";
import type { OAuthUserInfoExtensionInput } from "../extension-types.js";
import { collectExtensionClaims, extensionContext, extensionsOf } from "../extensions.js";
import { endpoint, type EndpointContext, type User } from "@latchkey/core";
import { checkAccessToken } from "../access-token-check.js";
import { NO_STORE, oauthError, withNoStore } from "../oauth-error.js";
import { enforceUserInfoBinding } from "../userinfo-dpop.js";
import { SCOPE_CLAIMS, type ResolvedOAuthOptions } from "../options.js";
import { presentedSubject } from "../subject.js";

const INVALID_TOKEN = "Invalid access token";
const CHALLENGE = `Bearer error="invalid_token", error_description="${INVALID_TOKEN}"`;

/** Given and family names: the display name split at its last space (one word gives neither). */
function splitName(name: string | undefined): { given?: string; family?: string } {
  const parts = (name ?? "").split(" ").filter(Boolean);
  return parts.length > 1 ? { given: parts.slice(0, -1).join(" "), family: parts.at(-1)! } : {};
}

/** OIDC Core §5.1 standard claims of `user` for the granted scopes and individually requested names. */
function standardClaims(user: User, scopes: string[], requested: string[]): Record<string, unknown> {
  const name = typeof user.name === "string" ? user.name : undefined;
  const values: Record<string, unknown> = {
    name: name ?? undefined,
    picture: user.image ?? undefined,
    given_name: splitName(name).given,
    family_name: splitName(name).family,
    email: user.email ?? undefined,
    email_verified: user.emailVerified ?? false,
  };
  const wanted = new Set(requested);
  const claims: Record<string, unknown> = { sub: user.id };
  for (const [scope, names] of Object.entries(SCOPE_CLAIMS)) {
    for (const claim of names) if (scopes.includes(scope) || wanted.has(claim)) claims[claim] = values[claim];
  }
  return claims;
}

/** The access token of a userinfo request: the Authorization header (RFC 6750 §2.1) or a POST form member (§2.2), not both. */
function presentedToken(headers: Headers, method: string, body: unknown): string | undefined {
  const header = headers.get("authorization");
  const fromHeader = header ? /^(?:Bearer|DPoP) +(.+)$/i.exec(header)?.[1]?.trim() : undefined;
  const formToken = method === "POST" && body && typeof body === "object" ? (body as Record<string, unknown>).access_token : undefined;
  const fromBody = typeof formToken === "string" && formToken ? formToken : undefined;
  if (fromHeader && fromBody) throw oauthError("BAD_REQUEST", "invalid_request", "Multiple access token transport methods are not allowed");
  return fromHeader ?? fromBody;
}

/** Claims the extensions add to a userinfo answer (never replacing one in `answer`); the client is loaded only for them. */
async function extensionUserInfoClaims(
  ctx: EndpointContext,
  options: ResolvedOAuthOptions,
  input: Omit<OAuthUserInfoExtensionInput, "ctx" | "opts" | "client">,
  answer: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!extensionsOf(ctx.context).some((extension) => extension.claims?.userInfo)) return {};
  const clientId = typeof input.jwt.client_id === "string" ? input.jwt.client_id : undefined;
  const client = clientId ? ((await findClient(ctx.context, clientId)) ?? undefined) : undefined;
  const full: OAuthUserInfoExtensionInput = { ...input, ctx: extensionContext(ctx.context), opts: options, client };
  return collectExtensionClaims(ctx.context, (extension) => extension.claims?.userInfo, full, answer);
}

/** The claims answered for the presented token (OIDC Core §5.3.2). */
async function claimsFor(ctx: EndpointContext, options: ResolvedOAuthOptions): Promise<Record<string, unknown>> {
  const token = presentedToken(ctx.headers, ctx.method, ctx.body);
  if (!token) throw oauthError("UNAUTHORIZED", "invalid_request", "access token not found");
  const { payload, requestedUserInfoClaims } = await checkAccessToken(ctx.context, options, token);
  if (!payload.active) throw oauthError("UNAUTHORIZED", "invalid_token", INVALID_TOKEN, { "WWW-Authenticate": CHALLENGE });
  await enforceUserInfoBinding(ctx, options, token, payload);
  const scopes = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
  if (!scopes.includes("openid")) throw oauthError("BAD_REQUEST", "invalid_scope", "Missing required scope");
  const user = typeof payload.sub === "string" ? await ctx.context.internalAdapter.findUserById(payload.sub) : null;
  if (!user) throw oauthError("BAD_REQUEST", "invalid_request", "user not found");
  const base = standardClaims(user, scopes, requestedUserInfoClaims);
  const custom = options.customUserInfoClaims
    ? await options.customUserInfoClaims({ user, scopes, jwt: payload, requestedClaims: requestedUserInfoClaims })
    : {};
  const extra = Object.fromEntries(Object.entries(custom ?? {}).filter(([, value]) => value !== undefined));
  // The pairwise subject of the client the token was issued to (OIDC Core §8.1); `sub` is never custom.
  const { sub } = await presentedSubject(ctx.context, options, { active: true, sub: user.id, client_id: payload.client_id, azp: payload.azp });
  const added = await extensionUserInfoClaims(ctx, options, { user, scopes, jwt: payload, requestedClaims: requestedUserInfoClaims }, { ...base, ...extra, sub });
  return { ...added, ...base, ...extra, sub };
}

/**
 * OIDC Core §5.3: the signed-in user's claims for an active access token with `openid`.
 * Answers, errors included, are `no-store` (personal data), as the reference's.
 */
export function userInfoEndpoint(options: ResolvedOAuthOptions) {
  return endpoint(
    "/oauth2/userinfo",
    { method: ["GET", "POST"], allowedMediaTypes: ["application/x-www-form-urlencoded", "application/json"] },
    async (ctx) => {
      for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
      try {
        return await claimsFor(ctx, options);
      } catch (error) {
        throw withNoStore(error);
      }
    },
  );
}
