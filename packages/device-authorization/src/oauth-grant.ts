import { getService, type EndpointContext } from "@latchkey/core";
import { OAUTH_PROVIDER_API, type OAuthClientRow, type OAuthGrantExtension } from "@latchkey/oauth-provider";
import { oauthError } from "./error-codes.js";
import { takeApprovalTime } from "./approval-time.js";
import { redeemDeviceCode } from "./redeem.js";
import { DEVICE_CODE_GRANT_TYPE } from "./routes/device-token.js";

const member = (body: Record<string, unknown>, name: string): string | undefined => {
  const value = body[name];
  if (Array.isArray(value)) throw oauthError("BAD_REQUEST", "invalid_request", `${name} must not be repeated`);
  return typeof value === "string" && value !== "" ? value : undefined;
};

/**
 * `grant_type=urn:ietf:params:oauth:grant-type:device_code` at `/oauth2/token` (RFC 8628
 * §3.4-3.5): the client authenticates as it registered (public clients by `client_id`), must
 * be the client the code was issued to and still be allowed the grant and the code's scopes;
 * then the shared polling state machine runs (`authorization_pending`, `slow_down`,
 * `expired_token`, `access_denied`) and an approved code is taken by one atomic delete
 * guarded by `oauthClientId`, so of concurrent polls exactly one gets oauth-provider's token
 * set (DPoP-bound when the poll carries a proof), for the RFC 8707 resources the code was
 * bound to or a subset the poll names, with the approving session's `auth_time`. Client and
 * resource checks come first: a failed one neither records a poll nor spends the code.
 */
async function exchangeDeviceCode(ctx: EndpointContext): Promise<Record<string, unknown>> {
  const body = (ctx.body && typeof ctx.body === "object" ? ctx.body : {}) as Record<string, unknown>;
  const deviceCode = member(body, "device_code");
  if (!deviceCode) throw oauthError("BAD_REQUEST", "invalid_request", "device_code is required");
  // The token endpoint has already checked each `resource` is an absolute URI without a fragment.
  const requested = body.resource === undefined ? undefined : ([body.resource].flat() as string[]);
  const api = getService(ctx.context, OAUTH_PROVIDER_API);
  const named = member(body, "client_id");
  let client: OAuthClientRow | undefined;
  let scopes: string[] = [];
  let confirmation: { jkt: string } | undefined;
  let resources: string[] | undefined;
  const tokenUrl = `${ctx.context.baseURL}/oauth2/token`;
  const { user, row } = await redeemDeviceCode(ctx, deviceCode, {
    authorize: async (row) => {
      // A first-party code (no OAuth client) is `/device/token`'s; here it is unknown.
      if (!row.oauthClientId) throw oauthError("BAD_REQUEST", "invalid_grant", "invalid device code");
      if (named && named !== row.oauthClientId) throw oauthError("BAD_REQUEST", "invalid_grant", "Client ID mismatch");
      scopes = row.scope ? row.scope.split(" ") : [];
      client = await api.authenticateClient(
        ctx.context,
        { headers: ctx.headers, body, endpoint: tokenUrl },
        { scopes, grant: DEVICE_CODE_GRANT_TYPE },
      );
      if (client.clientId !== row.oauthClientId) throw oauthError("BAD_REQUEST", "invalid_grant", "Client ID mismatch");
      // RFC 8707 §2 / spec rule 3: the poll may narrow the resources the user approved, never add one.
      const bound = row.resources ?? [];
      if (requested && requested.some((resource) => !bound.includes(resource))) {
        throw oauthError("BAD_REQUEST", "invalid_target", "Requested resource was not authorized by the user");
      }
      resources = requested ?? (bound.length ? bound : undefined);
      // Resolved again: a resource disabled or unlinked since approval stops the grant.
      const policy = await api.resourcePolicy(ctx.context, { resources, clientId: client.clientId, scopes });
      // RFC 9449: a DPoP proof binds the tokens; checked before the poll counts or the code is spent.
      const urls = ctx.request ? [tokenUrl, ctx.request.url] : [tokenUrl];
      confirmation = await api.dpopBinding(ctx.context, { headers: ctx.headers, urls }, client, { resourceRequires: policy.dpopRequired });
      return [{ field: "oauthClientId", value: client.clientId }];
    },
  });
  // OIDC Core §2: `auth_time` is when the approving user signed in.
  const authTime = await takeApprovalTime(ctx, row.id);
  return api.issueTokens(ctx.context, DEVICE_CODE_GRANT_TYPE, { client: client!, scopes, user, resources, authTime, confirmation });
}

/** The device_code grant as oauth-provider's token endpoint runs it, and its discovery member. */
export const deviceCodeGrant = (): OAuthGrantExtension => ({
  grantType: DEVICE_CODE_GRANT_TYPE,
  handle: exchangeDeviceCode,
  metadata: (context) => ({ device_authorization_endpoint: `${context.baseURL}/device/code` }),
});
