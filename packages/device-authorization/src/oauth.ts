import { provide, type LatchkeyPlugin } from "@latchkey/core";
import { oauthGrantExtensionKey } from "@latchkey/oauth-provider";
import { DEVICE_AUTHORIZATION_ERROR_CODES } from "./error-codes.js";
import { recordApprovalTime } from "./approval-time.js";
import { schemaFor } from "./table.js";
import { deviceCodeGrant } from "./oauth-grant.js";
import { checkDeviceCodeForm, deviceCodeValidationHook, noStoreHook } from "./oauth-errors.js";
import { resolveDeviceAuthorizationOptions, type DeviceAuthorizationOptions, type ResolvedDeviceAuthorizationOptions } from "./options.js";
import { oauthDeviceCodeFields } from "./schema.js";
import { deviceApprove, deviceDeny } from "./routes/device-decide.js";
import { DEVICE_CODE_GRANT_TYPE, OAUTH_TOKEN_ENDPOINT_ONLY, deviceToken } from "./routes/device-token.js";
import { deviceVerify } from "./routes/device-verify.js";
import { OAUTH_DEVICE_CODE_PARAMS, oauthDeviceCode } from "./routes/oauth-device-code.js";

export { DEVICE_CODE_GRANT_TYPE, OAUTH_TOKEN_ENDPOINT_ONLY };

const makeEndpoints = (options: ResolvedDeviceAuthorizationOptions) => ({
  deviceCode: oauthDeviceCode(options),
  deviceToken: deviceToken(options, true),
  deviceVerify: deviceVerify(),
  deviceApprove: deviceApprove(async (ctx, row, signedInAt) => {
    if (row.oauthClientId) await recordApprovalTime(ctx, row, signedInAt);
  }),
  deviceDeny: deviceDeny(),
});

/** The plugin object `oauthDeviceAuthorization()` returns. */
export interface OAuthDeviceAuthorizationPlugin extends LatchkeyPlugin<"device-authorization", ReturnType<typeof makeEndpoints>> {
  id: "device-authorization";
  options: ResolvedDeviceAuthorizationOptions;
}

/**
 * The device authorization grant (RFC 8628) for the registered clients of `oauthProvider()`:
 * a client asks `POST /device/code` (authenticated as it registered), the user opens the
 * verification page signed in, sees the client and scopes and approves (`GET /device`,
 * `POST /device/approve`), and the client polls `POST /oauth2/token` with
 * `grant_type=urn:ietf:params:oauth:grant-type:device_code`, receiving oauth-provider's token
 * set. Discovery gains `device_authorization_endpoint`. Same id and routes as
 * `deviceAuthorization()`, so the two cannot be installed together.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [jwt(), oauthProvider({ ... }), oauthDeviceAuthorization({ interval: "5s" })] });
 */
export function oauthDeviceAuthorization(options?: DeviceAuthorizationOptions): OAuthDeviceAuthorizationPlugin {
  const resolved = resolveDeviceAuthorizationOptions(options);
  return {
    id: "device-authorization",
    requires: ["oauth-provider"],
    schema: schemaFor(resolved, oauthDeviceCodeFields),
    endpoints: makeEndpoints(resolved),
    errorCodes: DEVICE_AUTHORIZATION_ERROR_CODES,
    hooks: { before: [noStoreHook], after: [deviceCodeValidationHook] },
    onRequest: (request, ctx) => checkDeviceCodeForm(request, ctx.basePath, OAUTH_DEVICE_CODE_PARAMS),
    rateLimit: [{ pathMatcher: (path) => path === "/device", window: resolved.expiresInMs / 1000, max: 5 }],
    // oauth-provider's token endpoint and discovery find the grant through this service.
    init: () => ({ services: [provide(oauthGrantExtensionKey(DEVICE_CODE_GRANT_TYPE), deviceCodeGrant())] }),
    options: resolved,
  };
}
