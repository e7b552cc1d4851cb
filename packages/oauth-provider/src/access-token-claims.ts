import type { AuthContext, User } from "@latchkey/core";
import { clientMetadata } from "./clients.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow } from "./schema.js";

/** RFC 9068 §2.2 claims the provider owns in an access token; `customAccessTokenClaims` cannot set them. */
const RESERVED = new Set(["iss", "sub", "aud", "exp", "iat", "jti", "client_id", "scope", "auth_time", "acr", "amr", "cnf"]);

/** `claims` without the names the provider owns (a resource's `customClaims` cannot replace them either). */
export const withoutReserved = (claims: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(claims).filter(([name]) => !RESERVED.has(name)));

/** What the access token is issued for. */
export interface AccessTokenClaimsInput {
  client: OAuthClientRow;
  user?: User | undefined;
  scopes: string[];
  resources?: string[] | undefined;
  referenceId?: string | undefined;
}

/** `customAccessTokenClaims` of a grant, reserved names dropped (a warning names them, never their values). */
export async function customAccessTokenClaims(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  input: AccessTokenClaimsInput,
): Promise<Record<string, unknown>> {
  if (!options.customAccessTokenClaims) return {};
  const claims = await options.customAccessTokenClaims({
    user: input.user,
    scopes: input.scopes,
    resources: input.resources,
    referenceId: input.referenceId,
    metadata: clientMetadata(input.client),
  });
  const stripped = Object.keys(claims ?? {}).filter((name) => RESERVED.has(name));
  if (stripped.length) ctx.logger.warn(`oauth-provider: stripped reserved access-token claim name(s): ${stripped.join(", ")}`);
  return Object.fromEntries(Object.entries(claims ?? {}).filter(([name]) => !RESERVED.has(name)));
}
