import type { LatchkeyPlugin, SchemaDefinition } from "@latchkey/core";
import { TWO_FACTOR_ERROR_CODES } from "./error-codes.js";
import { resolveTwoFactorOptions, type ResolvedTwoFactorOptions, type TwoFactorOptions } from "./options.js";
import { generateBackupCodesRoute, verifyBackupCodeRoute, viewBackupCodesRoute } from "./routes/backup-codes.js";
import { disableRoute } from "./routes/disable.js";
import { enableRoute } from "./routes/enable.js";
import { sendOTPRoute, verifyOTPRoute } from "./routes/otp.js";
import { generateTOTPRoute, getTOTPURIRoute, verifyTOTPRoute } from "./routes/totp.js";
import { twoFactorSchemaFor } from "./schema-options.js";
import { signInHook } from "./sign-in-hook.js";

export { TWO_FACTOR_ERROR_CODES, TWO_FACTOR_ERROR_CODES as ERROR_CODES } from "./error-codes.js";
export type {
  BackupCodeOptions,
  OTPOptions,
  StoreBackupCodesOption,
  StoreOTPOption,
  TOTPOptions,
  TwoFactorOptions,
  UserWithTwoFactor,
} from "./options.js";
export type { TwoFactorRow as TwoFactorTable } from "./schema.js";
export { hotp, matchTotp, totpCode, totpURI, type TotpParams } from "./totp.js";

function endpointsFor(options: ResolvedTwoFactorOptions) {
  return {
    generateTOTP: generateTOTPRoute(options),
    getTOTPURI: getTOTPURIRoute(options),
    verifyTOTP: verifyTOTPRoute(options),
    sendTwoFactorOTP: sendOTPRoute(options),
    verifyTwoFactorOTP: verifyOTPRoute(options),
    verifyBackupCode: verifyBackupCodeRoute(options),
    generateBackupCodes: generateBackupCodesRoute(options),
    viewBackupCodes: viewBackupCodesRoute(options),
    enableTwoFactor: enableRoute(options),
    disableTwoFactor: disableRoute(options),
  };
}

/** The plugin object `twoFactor()` returns. */
export interface TwoFactorPlugin extends LatchkeyPlugin<"two-factor", ReturnType<typeof endpointsFor>> {
  id: "two-factor";
  endpoints: ReturnType<typeof endpointsFor>;
  schema: SchemaDefinition;
  options: ResolvedTwoFactorOptions;
}

/**
 * A second sign-in step: TOTP authenticator apps, one-time codes sent by `otpOptions.sendOTP`,
 * backup codes and trusted devices. A password sign-in of an enrolled user answers
 * `{ twoFactorRedirect: true, twoFactorMethods }` with a `two_factor` challenge cookie instead
 * of a session; one of the verify routes then starts the session.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [twoFactor({ issuer: "My App" })] });
 */
export function twoFactor(options?: TwoFactorOptions): TwoFactorPlugin {
  const resolved = resolveTwoFactorOptions(options);
  return {
    id: "two-factor",
    endpoints: endpointsFor(resolved),
    schema: twoFactorSchemaFor(options),
    hooks: { after: [signInHook(resolved)] },
    errorCodes: TWO_FACTOR_ERROR_CODES,
    // Reference: every /two-factor/ route, 3 requests per 10 seconds.
    rateLimit: [{ pathMatcher: (path) => path.startsWith("/two-factor/"), window: 10, max: 3 }],
    options: resolved,
  };
}
