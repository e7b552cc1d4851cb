import type { LatchkeyPlugin } from "@latchkey/core";
import { SSO_ERROR_CODES } from "./error-codes.js";
import { resolveSSOOptions, type ResolvedSSOOptions, type SSOOptions } from "./options.js";
import { deleteSSOProvider, getSSOProvider, listSSOProviders } from "./routes/providers.js";
import { assertNoFieldCollisions } from "./additional-fields.js";
import { ssoCallback, ssoSharedCallback } from "./routes/callback.js";
import { signInSSO } from "./routes/sign-in.js";
import { register } from "./routes/register.js";
import { updateSSOProvider } from "./routes/update.js";
import { resolveSSOSchema } from "./schema.js";
import { verifiedDomainOrganizationHook } from "./domain-organization-hook.js";
import { domainVerificationEndpoints } from "./routes/domain-verification-endpoints.js";

export { SSO_ERROR_CODES } from "./error-codes.js";
export type {
  DefaultSSOProvider,
  DomainVerificationOptions,
  OrganizationProvisioningOptions,
  PrivateKeyMaterial,
  ProvisionedProvider,
  ProvisionUserInput,
  SSOOptions,
} from "./options.js";
export type { OIDCMapping, SSOProviderRow, StoredOIDCConfig, TokenEndpointAuthentication } from "./schema.js";
export type { SanitizedProvider } from "./sanitize.js";
export type {
  SSOProviderMutationGuardContext,
  SSOProviderMutationGuardInput,
  SSOProviderReference,
} from "./mutation-guard.js";
export type { DiscoveryErrorCode } from "./discovery.js";
export type { SSOProviderAdditionalFields } from "./additional-fields.js";
export type {
  ResolveSSOUser,
  SSOProviderUserProfile,
  SSOUserResolution,
  SSOUserResolutionContext,
  SSOUserResolutionInput,
} from "./user-resolution.js";

const endpointsOf = (options: ResolvedSSOOptions) => ({
  registerSSOProvider: register(options),
  listSSOProviders: listSSOProviders(options),
  getSSOProvider: getSSOProvider(options),
  updateSSOProvider: updateSSOProvider(options),
  deleteSSOProvider: deleteSSOProvider(options),
  signInSSO: signInSSO(options),
  callbackSSO: ssoCallback(options),
  callbackSSOShared: ssoSharedCallback(options),
  ...domainVerificationEndpoints(options),
});

/** The plugin object `sso()` returns. */
export interface SSOPlugin extends LatchkeyPlugin<"sso", ReturnType<typeof endpointsOf>> {
  id: "sso";
  options: ResolvedSSOOptions;
}

/**
 * Enterprise single sign-on over OpenID Connect: users register their organization's IdP
 * (`POST /sso/register`, discovery included) and manage it with the provider routes; the
 * providers live in the `ssoProvider` table as the reference stores them.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [sso({ providersLimit: 5 })] });
 */
export function sso(options?: SSOOptions): SSOPlugin {
  const resolved = resolveSSOOptions(options);
  assertNoFieldCollisions(resolved.additionalFields, resolved.fields);
  return {
    id: "sso",
    schema: resolveSSOSchema(resolved),
    endpoints: endpointsOf(resolved),
    errorCodes: SSO_ERROR_CODES,
    hooks: { after: [verifiedDomainOrganizationHook(resolved)] },
    options: resolved,
  };
}
