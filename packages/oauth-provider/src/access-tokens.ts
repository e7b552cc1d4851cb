import { generateRandomString, getService, type Adapter, type AuthContext, type User } from "@latchkey/core";
import { JWT_SIGNER } from "@latchkey/jwt";
import { tokenIssuer } from "./issuer.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow } from "./schema.js";
import { storedToken } from "./token-hash.js";
import { insertRow } from "./token-rows.js";
import type { Confirmation } from "./dpop-binding.js";
import type { ResourceSigningAlgorithm } from "./resource-options.js";

/** What an access token is issued for. */
export interface AccessTokenInput {
  client: OAuthClientRow;
  user?: User | undefined;
  scopes: string[];
  iat: number;
  exp: number;
  sessionId?: string | undefined;
  resources?: string[] | undefined;
  referenceId?: string | undefined;
  authorizationCodeId?: string | undefined;
  refreshId?: string | undefined;
  requestedUserInfoClaims?: string[] | undefined;
  /** RFC 9449 binding: the DPoP key thumbprint (`cnf.jkt`). */
  confirmation?: Confirmation | undefined;
}

/**
 * An opaque access token: 32 letters (or `generateOpaqueAccessToken`), stored as its hash in
 * `oauthAccessToken` and handed out with the configured prefix.
 */
export async function createOpaqueAccessToken(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  input: AccessTokenInput,
  adapter: Adapter = ctx.adapter,
): Promise<string> {
  const token = options.generateOpaqueAccessToken ? await options.generateOpaqueAccessToken() : generateRandomString(32, "A-Z", "a-z");
  await insertRow(ctx, adapter, "oauthAccessToken", {
      token: await storedToken(options, token, "access_token"),
      clientId: input.client.clientId,
      sessionId: input.sessionId ?? null,
      userId: input.user?.id ?? null,
      referenceId: input.referenceId ?? null,
      authorizationCodeId: input.authorizationCodeId ?? null,
      resources: input.resources ?? null,
      refreshId: input.refreshId ?? null,
      confirmation: input.confirmation ?? null,
      requestedUserInfoClaims: input.requestedUserInfoClaims?.length ? input.requestedUserInfoClaims : null,
      scopes: input.scopes,
      createdAt: new Date(input.iat * 1000),
      expiresAt: new Date(input.exp * 1000),
      revoked: null,
  });
  return (options.prefix?.opaqueAccessToken ?? "") + token;
}

/**
 * RFC 9068 JWT access token (`typ: at+jwt`), signed by the jwt plugin; used when the grant
 * names an audience (`resource`). Not stored: it is self-contained.
 */
export async function createJwtAccessToken(
  ctx: AuthContext,
  input: AccessTokenInput & {
    audience: string | string[];
    claims?: Record<string, unknown>;
    /** A resource's pins (`oauthResource.signingAlgorithm` / `signingKeyId`), honoured by the jwt plugin. */
    signingAlgorithm?: ResourceSigningAlgorithm | undefined;
    signingKeyId?: string | undefined;
  },
): Promise<string> {
  return getService(ctx, JWT_SIGNER).sign(
    Object.fromEntries(
      Object.entries({
        ...input.claims,
        sub: input.user?.id ?? input.client.clientId,
        aud: input.audience,
        client_id: input.client.clientId,
        azp: input.client.clientId,
        scope: input.scopes.join(" "),
        sid: input.sessionId,
        iss: tokenIssuer(ctx),
        iat: input.iat,
        exp: input.exp,
        jti: generateRandomString(32),
        cnf: input.confirmation,
      }).filter(([, value]) => value !== undefined),
    ),
    {
      header: { typ: "at+jwt" },
      ...(input.signingAlgorithm ? { signingAlgorithm: input.signingAlgorithm } : {}),
      ...(input.signingKeyId ? { signingKeyId: input.signingKeyId } : {}),
    },
  );
}
