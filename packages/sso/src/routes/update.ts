import { endpoint, sessionMiddleware } from "@latchkey/core";
import type * as v from "valibot";
import { accessibleProvider } from "../access.js";
import { checkClientAuthentication } from "../client-authentication.js";
import { checkConfiguredEndpoints } from "../endpoint-policy.js";
import { referenceError, SSO_ERROR_CODES } from "../error-codes.js";
import type { ResolvedSSOOptions } from "../options.js";
import { sanitizeProvider } from "../sanitize.js";
import { storedClientSecret } from "../secret-storage.js";
import { parseOIDCConfig, type SSOProviderRow, type StoredOIDCConfig } from "../schema.js";
import { updateBody, withAdditionalFields } from "./body-schemas.js";
import { additionalInput } from "../additional-fields.js";
import { guardedMutation } from "../mutation-guard.js";

/** The `oidcConfig` keys that say which IdP and client accounts belong to. */
const IDENTITY_KEYS = [
  "issuer",
  "clientId",
  "authorizationEndpoint",
  "tokenEndpoint",
  "userInfoEndpoint",
  "jwksEndpoint",
  "discoveryEndpoint",
] as const;

type UpdateInput = v.InferOutput<typeof updateBody>;

/** The stored config with the request's changes (`skipDiscovery` is a registration switch, not stored). */
function mergedConfig(current: StoredOIDCConfig | null, change: UpdateInput): StoredOIDCConfig | null {
  if (!change.oidcConfig && !change.issuer) return current;
  if (!current) return null;
  const { skipDiscovery: _skip, ...fields } = change.oidcConfig ?? {};
  return { ...current, ...fields, ...(change.issuer ? { issuer: change.issuer } : {}) } as StoredOIDCConfig;
}

/** Whether the change moves the provider to another IdP or client. */
function changesIdentity(
  row: SSOProviderRow,
  current: StoredOIDCConfig | null,
  next: StoredOIDCConfig | null,
): boolean {
  if (next?.issuer !== undefined && next.issuer !== row.issuer) return true;
  return IDENTITY_KEYS.some((key) => (current?.[key] ?? undefined) !== (next?.[key] ?? undefined));
}

/**
 * `POST /sso/update-provider` `{ providerId, issuer?, domain?, oidcConfig? }` (session
 * required): changes a provider the caller may manage and answers it sanitized. Moving it to
 * another IdP or client (issuer, client id, endpoints) is refused with 409 while accounts
 * signed in through it exist: they would then belong to someone else's identities.
 */
export const updateSSOProvider = (options: ResolvedSSOOptions) =>
  endpoint(
    "/sso/update-provider",
    {
      method: "POST",
      body: withAdditionalFields(updateBody, options.additionalFields),
      use: [sessionMiddleware],
      requireHeaders: true,
    },
    async (ctx) => {
      const { providerId, issuer, domain, oidcConfig } = ctx.body;
      const additional = additionalInput(
        options.additionalFields,
        ctx.body as Record<string, unknown>,
        "update",
      );
      if (!issuer && !domain && !oidcConfig && !Object.keys(additional).length)
        throw referenceError("BAD_REQUEST", "NO_UPDATE_FIELDS");
      const row = await accessibleProvider(ctx, providerId, ctx.context.session.user.id);
      const current = parseOIDCConfig(row);
      const merged = mergedConfig(current, ctx.body);
      const next =
        merged && oidcConfig?.clientSecret
          ? { ...merged, clientSecret: await storedClientSecret(ctx, options, oidcConfig.clientSecret) }
          : merged;
      if (oidcConfig) checkConfiguredEndpoints(oidcConfig, ctx.context.trustedOrigins);
      if (oidcConfig && next) checkClientAuthentication(options, providerId, next);
      const boundary = changesIdentity(row, current, next);
      const mutation = { action: "update", isAuthenticationBoundaryChange: boundary } as const;
      const updated = await guardedMutation(ctx, options, row, mutation, async (db) => {
        if (boundary) {
          const linked = await db.count({
            model: "account",
            where: [{ field: "providerId", value: providerId }],
          });
          if (linked > 0) throw SSO_ERROR_CODES.fail("IDENTITY_FIELDS_LOCKED", "CONFLICT");
        }
        return db.update<SSOProviderRow>({
          model: "ssoProvider",
          where: [{ field: "id", value: row.id }],
          update: {
            ...additional,
            ...(issuer ? { issuer } : {}),
            ...(domain ? { domain } : {}),
            // A new domain has to be proven again (the reference resets the flag too).
            ...(domain && domain !== row.domain && options.domainVerification?.enabled
              ? { domainVerified: false }
              : {}),
            ...(next && next !== current ? { oidcConfig: JSON.stringify(next) } : {}),
          },
        });
      });
      if (!updated) throw SSO_ERROR_CODES.fail("PROVIDER_NOT_FOUND", "NOT_FOUND");
      return sanitizeProvider(updated, ctx.context.baseURL, options.additionalFields);
    },
  );
