import type { LatchkeyPlugin } from "@latchkey/core";
import { PASSKEY_ERROR_CODES } from "./error-codes.js";
import { resolvePasskeyOptions, type PasskeyOptions, type ResolvedPasskeyOptions } from "./options.js";
import { generatePasskeyAuthenticationOptions } from "./routes/authenticate-options.js";
import { deletePasskey, listPasskeys, updatePasskey } from "./routes/manage.js";
import { generatePasskeyRegistrationOptions } from "./routes/register-options.js";
import { verifyPasskeyAuthentication } from "./routes/verify-authentication.js";
import { verifyPasskeyRegistration } from "./routes/verify-registration.js";
import { resolvePasskeySchema } from "./schema.js";

export { commonAuthenticatorNames, getAuthenticatorName } from "./authenticator-names.js";
export { PASSKEY_ERROR_CODES } from "./error-codes.js";
export type {
  PasskeyAuthenticationOptions,
  PasskeyExtensionsResolver,
  PasskeyOptions,
  PasskeyRegistrationOptions,
  PasskeyRegistrationUser,
} from "./options.js";
export { passkeySchema, type Passkey, type PasskeySchemaOptions } from "./schema.js";

/** The endpoints `passkey()` adds, by `auth.api` name (the reference's names). */
export type PasskeyEndpoints = {
  generatePasskeyRegistrationOptions: ReturnType<typeof generatePasskeyRegistrationOptions>;
  generatePasskeyAuthenticationOptions: ReturnType<typeof generatePasskeyAuthenticationOptions>;
  verifyPasskeyRegistration: ReturnType<typeof verifyPasskeyRegistration>;
  verifyPasskeyAuthentication: ReturnType<typeof verifyPasskeyAuthentication>;
  listPasskeys: typeof listPasskeys;
  deletePasskey: typeof deletePasskey;
  updatePasskey: typeof updatePasskey;
};

/** The plugin object `passkey()` returns. */
export interface PasskeyPlugin extends LatchkeyPlugin<"passkey", PasskeyEndpoints> {
  id: "passkey";
  options: ResolvedPasskeyOptions;
}

/**
 * Passkeys (WebAuthn) on `@simplewebauthn/server`: register one for the signed-in user (or,
 * with `registration.requireSession: false`, for the user `resolveUser` names), sign in with
 * it, list, rename and delete. Rows, challenge cookie and verification values are the
 * reference's, so passkeys registered with Better Auth keep working.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [passkey({ rpID: "example.com", rpName: "Example" })] });
 */
export function passkey(options?: PasskeyOptions): PasskeyPlugin {
  const resolved = resolvePasskeyOptions(options);
  return {
    id: "passkey",
    schema: resolvePasskeySchema(options?.schema),
    endpoints: {
      generatePasskeyRegistrationOptions: generatePasskeyRegistrationOptions(resolved),
      generatePasskeyAuthenticationOptions: generatePasskeyAuthenticationOptions(resolved),
      verifyPasskeyRegistration: verifyPasskeyRegistration(resolved),
      verifyPasskeyAuthentication: verifyPasskeyAuthentication(resolved),
      listPasskeys,
      deletePasskey,
      updatePasskey,
    },
    errorCodes: PASSKEY_ERROR_CODES,
    options: resolved,
  };
}
