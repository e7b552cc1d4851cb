import {
  APIError,
  constantTimeEqual,
  endpoint,
  sessionMiddleware,
  type EndpointContext,
} from "@latchkey/core";
import * as v from "valibot";
import { accessibleProvider } from "../access.js";
import { lookupTxt, ResolverUnavailableError } from "../domain-verification/dns-txt.js";
import { activeToken, issueToken, verificationIdentifier } from "../domain-verification/token.js";
import { parseProviderDomains } from "../domains.js";
import { SSO_ERROR_CODES } from "../error-codes.js";
import type { ResolvedSSOOptions } from "../options.js";
import type { SSOProviderRow } from "../schema.js";

const body = v.object({ providerId: v.string() });

/** RFC 1035 §2.3.4: one label is at most 63 octets. */
const DNS_LABEL_MAX_LENGTH = 63;

/** The caller's provider (404 / 403 as the other provider routes), refused with 409 once verified. */
async function unverifiedProvider(ctx: EndpointContext<{ providerId: string }>, userId: string) {
  const provider = await accessibleProvider(ctx, ctx.body.providerId, userId);
  if (provider.domainVerified) throw SSO_ERROR_CODES.fail("DOMAIN_VERIFIED", "CONFLICT");
  return provider;
}

/**
 * `POST /sso/request-domain-verification` `{ providerId }` (session; the provider's owner or
 * organization admin): 201 `{ domainVerificationToken }`, the live token when there is one, else
 * a new one valid for seven days. 409 `DOMAIN_VERIFIED` once the domain is verified.
 */
export const requestDomainVerification = (options: ResolvedSSOOptions) =>
  endpoint(
    "/sso/request-domain-verification",
    { method: "POST", body, use: [sessionMiddleware], requireHeaders: true },
    async (ctx) => {
      const provider = await unverifiedProvider(ctx, ctx.context.session.user.id);
      const active = await activeToken(ctx, options, provider.providerId);
      const domainVerificationToken = active?.value ?? (await issueToken(ctx, options, provider.providerId));
      ctx.status = 201;
      return { domainVerificationToken };
    },
  );

/** Whether one TXT record is the token, bare or as `<identifier>=<token>` (the reference accepts both). */
function recordProves(record: string, identifier: string, token: string): boolean {
  const value = record.trim();
  return constantTimeEqual(value, token) || constantTimeEqual(value, `${identifier}=${token}`);
}

/** Sets `domainVerified` unless the provider's domain changed meanwhile (then 409 `SSO_PROVIDER_CHANGED`). */
async function markVerified(ctx: EndpointContext, provider: SSOProviderRow): Promise<void> {
  const updated = await ctx.context.adapter.update<SSOProviderRow>({
    model: "ssoProvider",
    where: [
      { field: "id", value: provider.id },
      { field: "domain", value: provider.domain },
    ],
    update: { domainVerified: true },
  });
  if (!updated)
    throw APIError.from(
      "CONFLICT",
      "SSO_PROVIDER_CHANGED",
      "SSO provider changed while domain verification was in progress. Reload the provider and try again",
    );
}

/**
 * `POST /sso/verify-domain` `{ providerId }` (same guard): looks up TXT records at
 * `_<prefix>-<providerId>.<domain>` for every domain of the provider; when each domain has a
 * record holding the live token, marks the provider verified and answers 204. 404
 * `NO_PENDING_VERIFICATION` without a live token, 502 `DOMAIN_VERIFICATION_FAILED` when a
 * domain lacks the record (or its lookup failed), 400 `IDENTIFIER_TOO_LONG` / `INVALID_DOMAIN`.
 */
export const verifyDomain = (options: ResolvedSSOOptions) =>
  endpoint(
    "/sso/verify-domain",
    { method: "POST", body, use: [sessionMiddleware], requireHeaders: true },
    async (ctx) => {
      const provider = await unverifiedProvider(ctx, ctx.context.session.user.id);
      const identifier = verificationIdentifier(options, provider.providerId);
      if (identifier.length > DNS_LABEL_MAX_LENGTH)
        throw SSO_ERROR_CODES.fail("IDENTIFIER_TOO_LONG", "BAD_REQUEST");
      const active = await activeToken(ctx, options, provider.providerId);
      if (!active) throw SSO_ERROR_CODES.fail("NO_PENDING_VERIFICATION", "NOT_FOUND");
      const domains = parseProviderDomains(provider.domain);
      if (!domains) throw SSO_ERROR_CODES.fail("INVALID_DOMAIN", "BAD_REQUEST");
      const settings = options.domainVerification ?? {};
      for (const domain of domains) {
        let records: string[] = [];
        try {
          records = await lookupTxt(settings, `${identifier}.${domain}`);
        } catch (error) {
          if (error instanceof ResolverUnavailableError) {
            ctx.context.logger.error("Domain verification needs node:dns or the resolveTxt option", error);
            throw APIError.from(
              "INTERNAL_SERVER_ERROR",
              "DOMAIN_VERIFICATION_FAILED",
              "Unable to verify domain ownership due to server error",
            );
          }
          ctx.context.logger.warn(
            `DNS lookup failed while verifying the domain ${domain}`,
            error instanceof Error ? error.message : undefined,
          );
        }
        if (!records.some((record) => recordProves(record, identifier, active.value)))
          throw APIError.from(
            502,
            "DOMAIN_VERIFICATION_FAILED",
            `Unable to verify domain ownership for ${domain}. Try again later`,
          );
      }
      await markVerified(ctx, provider);
      ctx.status = 204;
      return undefined;
    },
  );
