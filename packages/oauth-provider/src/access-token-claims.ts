import type { AuthContext, User } from "@latchkey/core";
import { clientMetadata } from "./clients.js";
import { collectExtensionClaims, extensionContext, extensionsOf } from "./extensions.js";
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
  /** Undefined when re-derived at introspection. */
  grantType?: string | undefined;
  sessionId?: string | undefined;
}

/** Whether an extension contributes access-token claims (introspection then loads the user). */
export const hasAccessTokenClaimExtension = (ctx: AuthContext): boolean => extensionsOf(ctx).some((extension) => extension.claims?.accessToken);

/**
 * `customAccessTokenClaims` of a grant, reserved names dropped (a warning names them, never
 * their values), plus the claims extensions add (never replacing those). The same call at
 * issuance and at introspection, so an opaque token shows what a JWT would carry.
 */
export async function customAccessTokenClaims(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  input: AccessTokenClaimsInput,
): Promise<Record<string, unknown>> {
  const own = await optionClaims(ctx, options, input);
  if (!hasAccessTokenClaimExtension(ctx)) return own;
  const extension = await collectExtensionClaims(
    ctx,
    (ext) => ext.claims?.accessToken,
    {
      ctx: extensionContext(ctx),
      opts: options,
      user: input.user,
      client: input.client,
      scopes: input.scopes,
      grantType: input.grantType,
      referenceId: input.referenceId,
      sessionId: input.sessionId,
      resources: input.resources,
      metadata: clientMetadata(input.client),
    },
    new Set([...RESERVED, ...Object.keys(own)]),
  );
  return { ...extension, ...own };
}

async function optionClaims(ctx: AuthContext, options: ResolvedOAuthOptions, input: AccessTokenClaimsInput): Promise<Record<string, unknown>> {
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
