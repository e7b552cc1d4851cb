import { getService, type EndpointContext } from "@latchkey/core";
import { OAUTH_PROVIDER_API, type OAuthClientRow, type OAuthGrantExtension } from "@latchkey/oauth-provider";
import { oauthError } from "./error-codes.js";
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
 * set (DPoP-bound when the poll carries a proof). Client checks come first: a failed one neither records a poll nor spends the code.
 */
async function exchangeDeviceCode(ctx: EndpointContext): Promise<Record<string, unknown>> {
  const body = (ctx.body && typeof ctx.body === "object" ? ctx.body : {}) as Record<string, unknown>;
  const deviceCode = member(body, "device_code");
  if (!deviceCode) throw oauthError("BAD_REQUEST", "invalid_request", "device_code is required");
  if (body.resource !== undefined) {
    throw oauthError("BAD_REQUEST", "invalid_target", "resource indicators are not supported by the device authorization grant");
  }
  const api = getService(ctx.context, OAUTH_PROVIDER_API);
  const named = member(body, "client_id");
  let client: OAuthClientRow | undefined;
  let scopes: string[] = [];
  let confirmation: { jkt: string } | undefined;
  const tokenUrl = `${ctx.context.baseURL}/oauth2/token`;
  const { user } = await redeemDeviceCode(ctx, deviceCode, {
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
      // RFC 9449: a DPoP proof binds the tokens; checked before the poll counts or the code is spent.
      confirmation = await api.dpopBinding(ctx.context, { headers: ctx.headers, urls: ctx.request ? [tokenUrl, ctx.request.url] : [tokenUrl] }, client);
      return [{ field: "oauthClientId", value: client.clientId }];
    },
  });
  return api.issueTokens(ctx.context, DEVICE_CODE_GRANT_TYPE, { client: client!, scopes, user, confirmation });
}

/** The device_code grant as oauth-provider's token endpoint runs it, and its discovery member. */
export const deviceCodeGrant = (): OAuthGrantExtension => ({
  grantType: DEVICE_CODE_GRANT_TYPE,
  handle: exchangeDeviceCode,
  metadata: (context) => ({ device_authorization_endpoint: `${context.baseURL}/device/code` }),
});
