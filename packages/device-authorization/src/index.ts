import type { LatchkeyPlugin } from "@latchkey/core";
import { DEVICE_AUTHORIZATION_ERROR_CODES } from "./error-codes.js";
import { deviceCodeValidationHook, noStoreHook, checkDeviceCodeForm } from "./oauth-errors.js";
import { resolveDeviceAuthorizationOptions, type DeviceAuthorizationOptions, type ResolvedDeviceAuthorizationOptions } from "./options.js";
import { schemaFor } from "./table.js";
import { deviceApprove, deviceDeny } from "./routes/device-decide.js";
import { deviceCode } from "./routes/device-code.js";
import { deviceToken } from "./routes/device-token.js";
import { deviceVerify } from "./routes/device-verify.js";

export { DEVICE_AUTHORIZATION_ERROR_CODES } from "./error-codes.js";
export { redeemDeviceCode, type Redemption, type RedemptionCheck } from "./redeem.js";
export { DEVICE_CODE_GRANT_TYPE } from "./routes/device-token.js";
export type { DeviceAuthorizationOptions, DeviceAuthorizationSchemaOptions } from "./options.js";
export type { DeviceCodeRow, DeviceCodeStatus } from "./schema.js";

const makeEndpoints = (options: ResolvedDeviceAuthorizationOptions) => ({
  deviceCode: deviceCode(options),
  deviceToken: deviceToken(options),
  deviceVerify: deviceVerify(),
  deviceApprove: deviceApprove(),
  deviceDeny: deviceDeny(),
});

/** The plugin object `deviceAuthorization()` returns. */
export interface DeviceAuthorizationPlugin extends LatchkeyPlugin<"device-authorization", ReturnType<typeof makeEndpoints>> {
  id: "device-authorization";
  options: ResolvedDeviceAuthorizationOptions;
}

/**
 * The OAuth 2.0 device authorization grant (RFC 8628) for your own apps: a TV or CLI asks
 * `/device/code` for a code pair, shows the user code, and polls `/device/token`; the user
 * signs in on another device, opens `/device?user_code=…` and approves; the next poll gets a
 * Better Auth session token as `access_token`.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [deviceAuthorization({ expiresIn: "10m", interval: "5s" })] });
 */
export function deviceAuthorization(options?: DeviceAuthorizationOptions): DeviceAuthorizationPlugin {
  const resolved = resolveDeviceAuthorizationOptions(options);
  return {
    id: "device-authorization",
    schema: schemaFor(resolved),
    endpoints: makeEndpoints(resolved),
    errorCodes: DEVICE_AUTHORIZATION_ERROR_CODES,
    hooks: { before: [noStoreHook], after: [deviceCodeValidationHook] },
    onRequest: (request, ctx) => checkDeviceCodeForm(request, ctx.basePath),
    rateLimit: [{ pathMatcher: (path) => path === "/device", window: resolved.expiresInMs / 1000, max: 5 }],
    options: resolved,
  };
}
