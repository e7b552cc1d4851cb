import { endpoint, sessionMiddleware, type EndpointContext, type WithSession } from "@latchkey/core";
import { hasOrganizationPlugin, isOwnerOrAdmin, membership } from "../access.js";
import { discover } from "../discovery.js";
import { checkConfiguredEndpoints } from "../endpoint-policy.js";
import { incompleteOIDCConfig, referenceError, SSO_ERROR_CODES } from "../error-codes.js";
import { checkClientAuthentication } from "../client-authentication.js";
import type { ResolvedSSOOptions } from "../options.js";
import { providerRedirectURI } from "../redirect-uri.js";
import { sanitizeProvider } from "../sanitize.js";
import { storedClientSecret } from "../secret-storage.js";
import type { SSOProviderRow, StoredOIDCConfig } from "../schema.js";
import { registerBody, withAdditionalFields } from "./body-schemas.js";
import { additionalInput } from "../additional-fields.js";
import { issueToken } from "../domain-verification/token.js";
import type * as v from "valibot";

type RegisterInput = v.InferOutput<typeof registerBody>;
type RegisterContext = EndpointContext<RegisterInput, unknown, WithSession>;

/** Provider ids core and the other plugins already use for their accounts. */
const BUILT_IN_PROVIDER_IDS = ["credential", "email-otp", "magic-link", "phone-number", "anonymous", "siwe"];

/** Whether `providerId` would collide with another sign-in method's accounts. */
function isReserved(ctx: RegisterContext, options: ResolvedSSOOptions, providerId: string): boolean {
  const trusted = ctx.context.options.account?.accountLinking?.trustedProviders;
  return (
    BUILT_IN_PROVIDER_IDS.includes(providerId) ||
    ctx.context.socialProviders.some((p) => p.id === providerId) ||
    (Array.isArray(trusted) && trusted.includes(providerId)) ||
    options.defaultSSO.some((p) => p.providerId === providerId)
  );
}

/** 403 when the user may register no more providers. */
async function checkLimit(ctx: RegisterContext, options: ResolvedSSOOptions): Promise<void> {
  const user = ctx.context.session.user;
  const limit =
    typeof options.providersLimit === "function"
      ? await options.providersLimit(user)
      : options.providersLimit;
  if (!limit) throw referenceError("FORBIDDEN", "SSO_REGISTRATION_DISABLED");
  const count = await ctx.context.adapter.count({
    model: "ssoProvider",
    where: [{ field: "userId", value: user.id }],
  });
  if (count >= limit) throw SSO_ERROR_CODES.fail("PROVIDERS_LIMIT_REACHED", "FORBIDDEN");
}

/** 400/403 unless the caller is an owner or admin of the organization (with the organization plugin). */
async function checkOrganization(ctx: RegisterContext, organizationId: string | undefined): Promise<void> {
  if (!organizationId || !hasOrganizationPlugin(ctx)) return;
  const member = await membership(ctx, organizationId, ctx.context.session.user.id);
  if (!member) throw SSO_ERROR_CODES.fail("NOT_ORGANIZATION_MEMBER", "BAD_REQUEST");
  if (!isOwnerOrAdmin(member.role)) throw SSO_ERROR_CODES.fail("ORGANIZATION_ROLE_REQUIRED", "FORBIDDEN");
}

/** The `oidcConfig` JSON to store: the request's values, discovery's endpoints. */
async function storedConfig(ctx: RegisterContext, options: ResolvedSSOOptions): Promise<StoredOIDCConfig> {
  const { issuer, oidcConfig: config, overrideUserInfo } = ctx.body;
  // Be correct where the reference is not: it stores `{}` and every sign-in then fails.
  if (!config) throw incompleteOIDCConfig(["oidcConfig"]);
  checkConfiguredEndpoints(config, ctx.context.trustedOrigins);
  const endpoints = config.skipDiscovery
    ? {
        discoveryEndpoint:
          config.discoveryEndpoint ?? `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
        authorizationEndpoint: config.authorizationEndpoint,
        tokenEndpoint: config.tokenEndpoint,
        jwksEndpoint: config.jwksEndpoint,
        userInfoEndpoint: config.userInfoEndpoint,
        tokenEndpointAuthentication: config.tokenEndpointAuthentication ?? "client_secret_basic",
      }
    : await discover({ issuer, ...config }, ctx.context.trustedOrigins);
  checkClientAuthentication(options, ctx.body.providerId, {
    clientSecret: config.clientSecret,
    tokenEndpointAuthentication: endpoints.tokenEndpointAuthentication,
  });
  return {
    issuer,
    clientId: config.clientId,
    clientSecret: await storedClientSecret(ctx, options, config.clientSecret),
    ...endpoints,
    privateKeyId: config.privateKeyId,
    privateKeyAlgorithm: config.privateKeyAlgorithm,
    pkce: config.pkce ?? true,
    mapping: config.mapping,
    scopes: config.scopes,
    overrideUserInfo: overrideUserInfo ?? config.overrideUserInfo ?? options.defaultOverrideUserInfo ?? false,
  };
}

const exists = async (ctx: RegisterContext, providerId: string) =>
  (await ctx.context.adapter.count({
    model: "ssoProvider",
    where: [{ field: "providerId", value: providerId }],
  })) > 0;

/**
 * `POST /sso/register` (session required): registers an OIDC provider for the caller (or an
 * organization they own or administer), running discovery unless `skipDiscovery`. Answers the
 * sanitized provider with its `redirectURI`; the client secret is never echoed.
 */
export const register = (options: ResolvedSSOOptions) =>
  endpoint(
    "/sso/register",
    {
      method: "POST",
      body: withAdditionalFields(registerBody, options.additionalFields),
      use: [sessionMiddleware],
      requireHeaders: true,
    },
    async (ctx) => {
      const { providerId, organizationId } = ctx.body;
      await checkLimit(ctx, options);
      if (isReserved(ctx, options, providerId))
        throw referenceError("UNPROCESSABLE_ENTITY", "PROVIDER_ID_RESERVED");
      await checkOrganization(ctx, organizationId);
      if (await exists(ctx, providerId))
        throw SSO_ERROR_CODES.fail("PROVIDER_EXISTS", "UNPROCESSABLE_ENTITY");
      if (ctx.body.samlConfig) throw SSO_ERROR_CODES.fail("SAML_NOT_SUPPORTED", "BAD_REQUEST");
      const additional = additionalInput(
        options.additionalFields,
        ctx.body as Record<string, unknown>,
        "create",
      );
      const config = await storedConfig(ctx, options);
      const verifying = options.domainVerification?.enabled === true;
      let created: SSOProviderRow | null;
      try {
        created = await ctx.context.internalAdapter.create<SSOProviderRow>(
          "ssoProvider",
          {
            ...additional,
            issuer: ctx.body.issuer,
            domain: ctx.body.domain,
            providerId,
            organizationId: organizationId ?? null,
            userId: ctx.context.session.user.id,
            oidcConfig: JSON.stringify(config),
            samlConfig: null,
            ...(verifying ? { domainVerified: false } : {}),
          },
          ctx,
        );
      } catch (error) {
        // A concurrent registration of the same id won the unique index.
        if (await exists(ctx, providerId))
          throw SSO_ERROR_CODES.fail("PROVIDER_EXISTS", "UNPROCESSABLE_ENTITY");
        throw error;
      }
      // A database hook on `ssoProvider` refused the row (Latchkey runs hooks on every table; the reference on none here).
      if (!created) throw SSO_ERROR_CODES.fail("PROVIDER_NOT_CREATED", "BAD_REQUEST");
      return {
        ...sanitizeProvider(created, ctx.context.baseURL, options.additionalFields),
        redirectURI: providerRedirectURI(ctx.context.baseURL, providerId, options.redirectURI),
        // The reference's answer with verification on: the token for the DNS record, issued now.
        ...(verifying
          ? { domainVerified: false, domainVerificationToken: await issueToken(ctx, options, providerId) }
          : {}),
      };
    },
  );
