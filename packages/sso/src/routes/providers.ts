import { endpoint, sessionMiddleware, type EndpointContext, type WithSession } from "@latchkey/core";
import { accessibleProvider, hasOrganizationPlugin, isOwnerOrAdmin } from "../access.js";
import { guardedMutation } from "../mutation-guard.js";
import type { ResolvedSSOOptions } from "../options.js";
import { sanitizeProvider } from "../sanitize.js";
import type { SSOProviderRow } from "../schema.js";
import { providerIdSchema } from "./body-schemas.js";

/** The organizations the caller owns or administers. */
async function managedOrganizations(ctx: EndpointContext<unknown, unknown, WithSession>): Promise<string[]> {
  const members = await ctx.context.adapter.findMany<{ organizationId: string; role: string }>({
    model: "member",
    where: [{ field: "userId", value: ctx.context.session.user.id }],
  });
  return members.filter((m) => isOwnerOrAdmin(m.role)).map((m) => m.organizationId);
}

/**
 * `GET /sso/providers` (session required): `{ providers }`, sanitized: the caller's own
 * providers and, with the organization plugin, those of organizations they own or administer.
 */
export const listSSOProviders = (options: ResolvedSSOOptions) =>
  endpoint(
    "/sso/providers",
    { method: "GET", use: [sessionMiddleware], requireHeaders: true },
    async (ctx) => {
      const userId = ctx.context.session.user.id;
      const own = await ctx.context.adapter.findMany<SSOProviderRow>({
        model: "ssoProvider",
        where: [{ field: "userId", value: userId }],
      });
      if (!hasOrganizationPlugin(ctx))
        return {
          providers: own.map((row) => sanitizeProvider(row, ctx.context.baseURL, options.additionalFields)),
        };
      const organizations = await managedOrganizations(ctx);
      const owned = organizations.length
        ? await ctx.context.adapter.findMany<SSOProviderRow>({
            model: "ssoProvider",
            where: [{ field: "organizationId", operator: "in", value: organizations }],
          })
        : [];
      const rows = [...own.filter((row) => !row.organizationId), ...owned];
      return {
        providers: rows.map((row) => sanitizeProvider(row, ctx.context.baseURL, options.additionalFields)),
      };
    },
  );

/** `GET /sso/get-provider?providerId=` (session required): one sanitized provider; 404 / 403. */
export const getSSOProvider = (options: ResolvedSSOOptions) =>
  endpoint(
    "/sso/get-provider",
    { method: "GET", query: providerIdSchema, use: [sessionMiddleware], requireHeaders: true },
    async (ctx) => {
      const provider = await accessibleProvider(ctx, ctx.query.providerId, ctx.context.session.user.id);
      return sanitizeProvider(provider, ctx.context.baseURL, options.additionalFields);
    },
  );

/**
 * `POST /sso/delete-provider` `{ providerId }` (session required): deletes the provider and
 * every account row signed in through it; `{ success: true }`.
 */
export const deleteSSOProvider = (options: ResolvedSSOOptions) =>
  endpoint(
    "/sso/delete-provider",
    { method: "POST", body: providerIdSchema, use: [sessionMiddleware], requireHeaders: true },
    async (ctx) => {
      const provider = await accessibleProvider(ctx, ctx.body.providerId, ctx.context.session.user.id);
      await guardedMutation(ctx, options, provider, { action: "delete" }, async (db) => {
        await db.deleteMany({
          model: "account",
          where: [{ field: "providerId", value: provider.providerId }],
        });
        await db.deleteMany({
          model: "ssoProvider",
          where: [{ field: "id", value: provider.id }],
        });
      });
      return { success: true };
    },
  );
