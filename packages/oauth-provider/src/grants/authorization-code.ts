import { tokenBinding, type DpopRequest } from "../dpop-binding.js";
import { base64UrlEncode, constantTimeEqual, utf8Encode, type AuthContext } from "@latchkey/core";
import { parseCodeValue } from "../authorization-code.js";
import { requestedUserInfoClaims } from "../claims-request.js";
import { authenticateClient, type PresentedClient } from "../client-auth.js";
import { pkceRequirement } from "../clients.js";
import { issueTokens } from "../issue-tokens.js";
import { resolveResourcePolicy } from "../resource-policy.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { storedToken } from "../token-hash.js";
import type { TokenBody } from "./token-body.js";

/** RFC 7636 §4.2 S256: BASE64URL(SHA256(ASCII(code_verifier))). */
async function s256(verifier: string): Promise<string> {
  return base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(verifier))));
}

/** Tokens issued for a code that is presented again are revoked (spec, States: "authorization code issued"). */
async function revokeIssuedFor(ctx: AuthContext, authorizationCodeId: string): Promise<void> {
  for (const model of ["oauthAccessToken", "oauthRefreshToken"]) {
    try {
      await ctx.adapter.deleteMany({ model, where: [{ field: "authorizationCodeId", value: authorizationCodeId }] });
    } catch (error) {
      ctx.logger.error("authorization code replay cleanup failed", error instanceof Error ? error.name : "unknown");
    }
  }
}

const invalidCode = () => oauthError("BAD_REQUEST", "invalid_grant", "invalid code");

/**
 * RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.5-4.6). Every check of the request (client, secret,
 * redirect URI, verifier) runs against the stored code *before* it is consumed: a request
 * that fails them leaves the code to its holder. The reference consumes first, so anyone who
 * intercepts a code can destroy the rightful sign-in (DIVERGENCES.md). The code is then taken
 * with one atomic single-use read: of concurrent redemptions exactly one gets it.
 */
export async function authorizationCodeGrant(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  body: TokenBody,
  presented: PresentedClient | null,
  dpop: DpopRequest = { urls: [] },
): Promise<Record<string, unknown>> {
  if (!presented) throw oauthError("BAD_REQUEST", "invalid_request", "client_id is required");
  if (!body.code) throw oauthError("BAD_REQUEST", "invalid_request", "code is required");
  if (presented.method === "none" && !body.code_verifier) {
    throw oauthError("BAD_REQUEST", "invalid_request", "Either code_verifier or client_secret is required");
  }
  const codeId = await storedToken(options, body.code, "authorization_code");
  const row = await ctx.internalAdapter.findVerificationValue(codeId);
  if (!row) {
    await revokeIssuedFor(ctx, codeId);
    throw invalidCode();
  }
  const value = parseCodeValue(row);
  if (!value) throw oauthError("BAD_REQUEST", "invalid_grant", "malformed verification value");
  const query = value.query;
  if (query.client_id !== presented.clientId) throw oauthError("BAD_REQUEST", "invalid_grant", "invalid client_id");
  if (query.redirect_uri) {
    if (!body.redirect_uri) throw oauthError("BAD_REQUEST", "invalid_request", "redirect_uri is required");
    if (query.redirect_uri !== body.redirect_uri) throw oauthError("BAD_REQUEST", "invalid_grant", "redirect_uri mismatch");
  } else if (body.redirect_uri) {
    throw oauthError("BAD_REQUEST", "invalid_grant", "redirect_uri mismatch");
  }
  // Spec rule 3: a token request may narrow the resources of the grant, never widen them; a code
  // authorized without resources gains none (the reference accepts any configured one here).
  const authorized = value.resource ?? [];
  if (body.resource?.some((resource) => !authorized.includes(resource))) {
    throw oauthError("BAD_REQUEST", "invalid_target", "requested resource not authorized");
  }
  const scopes = typeof query.scope === "string" ? query.scope.split(" ") : [];
  const client = await authenticateClient(ctx, options, presented, { scopes, grant: "authorization_code" });
  const verifier = body.code_verifier;
  if (pkceRequirement(client, scopes, query.nonce) && !verifier) {
    throw oauthError("BAD_REQUEST", "invalid_request", "PKCE is required for this client");
  }
  if (query.code_challenge || verifier) {
    if (!verifier) throw oauthError("UNAUTHORIZED", "invalid_request", "code_verifier required because PKCE was used in authorization");
    if (!query.code_challenge) throw oauthError("UNAUTHORIZED", "invalid_request", "code_verifier provided but PKCE was not used in authorization");
    // RFC 7636 §4.6: a verifier that does not match is `invalid_grant` (400); the reference answers 401 invalid_request.
    const matches = query.code_challenge_method === "S256" && constantTimeEqual(await s256(verifier), query.code_challenge);
    if (!matches) throw oauthError("BAD_REQUEST", "invalid_grant", "code verification failed");
  }
  // RFC 9449 §10: a code authorized with `dpop_jkt` is redeemed only with a proof by that key.
  // Checked before the code is spent, so a bad proof leaves it to its holder.
  const codeJkt = typeof query.dpop_jkt === "string" ? query.dpop_jkt : undefined;
  const resources = body.resource ?? (value.resource?.length ? value.resource : undefined);
  const policy = await resolveResourcePolicy(ctx, options.resourceStore, { resources, clientId: client.clientId, scopes });
  const confirmation = await tokenBinding(ctx, options, dpop, { client, codeJkt, resourceRequires: policy.dpopRequired });
  // Single use: only now is the code spent; a concurrent redemption that lost the race is a replay.
  const consumed = await ctx.internalAdapter.consumeVerificationValue(codeId);
  if (!consumed) {
    await revokeIssuedFor(ctx, codeId);
    throw invalidCode();
  }
  const user = await ctx.internalAdapter.findUserById(value.userId);
  if (!user) throw oauthError("BAD_REQUEST", "invalid_user", "missing user, user may have been deleted");
  const session = await ctx.adapter.findOne<{ id: string; expiresAt: Date; createdAt: Date }>({
    model: "session",
    where: [{ field: "id", value: value.sessionId }],
  });
  if (!session || new Date(session.expiresAt).getTime() < Date.now()) {
    throw oauthError("BAD_REQUEST", "invalid_request", "session no longer exists");
  }
  const authTime = value.authTime != null ? new Date(value.authTime) : new Date(session.createdAt);
  return issueTokens(ctx, options, {
    grantType: "authorization_code",
    client,
    scopes: policy.scopes,
    user,
    sessionId: session.id,
    referenceId: value.referenceId,
    nonce: query.nonce,
    authTime,
    authorizationCodeId: codeId,
    resources,
    policy,
    requestedUserInfoClaims: requestedUserInfoClaims(query.claims, options.advertisedMetadata?.claims_supported ?? options.claims),
    confirmation,
  });
}
