import { tokenBinding, type DpopRequest } from "../dpop-binding.js";
import type { AuthContext } from "@latchkey/core";
import { authenticateClient, type PresentedClient } from "../client-auth.js";
import { issueTokens } from "../issue-tokens.js";
import { resolveResourcePolicy } from "../resource-policy.js";
import { oauthError } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import type { TokenBody } from "./token-body.js";
import { quoted } from "../echo.js";

/** Scopes that speak for a user; a client acting for itself never gets them. */
const USER_SCOPES = new Set(["openid", "profile", "email", "offline_access"]);

/**
 * RFC 6749 §4.4: a confidential client acting for itself, limited to its own
 * `clientCredentialsScopes` (spec rule 4); no refresh or ID token.
 */
export async function clientCredentialsGrant(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  body: TokenBody,
  presented: PresentedClient | null,
  dpop: DpopRequest = { urls: [] },
): Promise<Record<string, unknown>> {
  if (!presented) throw oauthError("BAD_REQUEST", "invalid_request", "Missing required client_id");
  const client = await authenticateClient(ctx, options, presented, { grant: "client_credentials" });
  if (client.tokenEndpointAuthMethod === "none") {
    throw oauthError("BAD_REQUEST", "unauthorized_client", "public clients cannot use the client_credentials grant");
  }
  const allowed = client.clientCredentialsScopes ?? [];
  if (!allowed.length) throw oauthError("BAD_REQUEST", "unauthorized_client", "client has no authorized client_credentials scopes");
  const requested = body.scope?.split(" ");
  if (requested) {
    const invalid = requested.filter((scope) => !allowed.includes(scope) || USER_SCOPES.has(scope));
    if (invalid.length) throw oauthError("BAD_REQUEST", "invalid_scope", `The following scopes are invalid: ${invalid.map(quoted).join(", ")}`);
  }
  // RFC 8707: configured resources only (linked to the client when enforcePerClientResources).
  const policy = await resolveResourcePolicy(ctx, options.resourceStore, { resources: body.resource, clientId: client.clientId, scopes: requested ?? [...allowed] });
  const confirmation = await tokenBinding(ctx, options, dpop, { client, resourceRequires: policy.dpopRequired });
  return issueTokens(ctx, options, { grantType: "client_credentials", client, scopes: policy.scopes, resources: body.resource, policy, confirmation });
}
