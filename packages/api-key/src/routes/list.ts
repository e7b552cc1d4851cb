import { endpoint, sessionMiddleware } from "@latchkey/core";
import * as v from "valibot";
import { configIdMatches, isDefaultConfigId, pickConfig } from "../configurations.js";
import { sweepExpiredKeys } from "../expired-sweep.js";
import { checkOrgKeyAccess } from "../org-access.js";
import type { ResolvedConfig } from "../options.js";
import { toPublic, type ApiKeyRecord } from "../record.js";
import { listKeys } from "../store.js";
import { presentable } from "./present.js";

/** Columns a list may be sorted by (any other name is a 400, never a database error). */
const SORTABLE = [
  "id", "configId", "name", "start", "referenceId", "prefix", "refillInterval", "refillAmount", "lastRefillAt",
  "enabled", "rateLimitEnabled", "rateLimitTimeWindow", "rateLimitMax", "requestCount", "remaining",
  "lastRequest", "expiresAt", "createdAt", "updatedAt",
] as const;

const count = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))]),
  v.integer(),
  v.minValue(0),
  v.maxValue(Number.MAX_SAFE_INTEGER),
);

const query = v.optional(
  v.object({
    configId: v.optional(v.string()),
    organizationId: v.optional(v.string()),
    limit: v.optional(count),
    offset: v.optional(count),
    sortBy: v.optional(v.picklist(SORTABLE)),
    sortDirection: v.optional(v.picklist(["asc", "desc"])),
  }),
);

/** One configuration per storage kind, so keys kept in one place are read once. */
function oneConfigPerStore(configs: readonly ResolvedConfig[]): ResolvedConfig[] {
  const seen = new Map<string, ResolvedConfig>();
  for (const config of configs) {
    const kind = config.storage === "database" ? "database"
      : config.customStorage ? `custom:${config.configId}`
      : config.fallbackToDatabase ? "storage+db" : "storage";
    if (!seen.has(kind)) seen.set(kind, config);
  }
  return [...seen.values()];
}

/**
 * `GET /api-key/list?configId&organizationId&limit&offset&sortBy&sortDirection` (session):
 * `{ apiKeys, total, limit, offset }`, the caller's keys (or the organization's, for members
 * allowed to read them), without their `key`.
 */
export const listApiKeys = (configs: readonly ResolvedConfig[]) =>
  endpoint("/api-key/list", { method: "GET", query, use: [sessionMiddleware] }, async (ctx) => {
    const { configId, organizationId, limit, offset, sortBy, sortDirection } = ctx.query ?? {};
    const userId = ctx.context.session.user.id;
    if (organizationId) await checkOrgKeyAccess(ctx, userId, organizationId, "read");
    const referenceId = organizationId ?? userId;
    const references = organizationId ? "organization" : "user";
    const sort = sortBy ? { field: sortBy, direction: sortDirection ?? "asc" } : undefined;
    const sources = configId ? [pickConfig(configs, configId)] : oneConfigPerStore(configs);
    const found: ApiKeyRecord[] = [];
    const ids = new Set<string>();
    for (const source of sources) {
      for (const record of await listKeys(ctx.context, source, referenceId, sort)) {
        if (ids.has(record.id)) continue;
        ids.add(record.id);
        found.push(record);
      }
    }
    const owned = found.filter((record) => {
      const config = configs.find((c) => (isDefaultConfigId(record.configId) ? isDefaultConfigId(c.configId) : c.configId === record.configId));
      return (config?.references ?? "user") === references && record.referenceId === referenceId;
    });
    const matching = configId ? owned.filter((r) => configIdMatches(r.configId, configId)) : owned;
    const page = matching.slice(offset ?? 0, limit === undefined ? undefined : (offset ?? 0) + limit);
    sweepExpiredKeys(ctx.context);
    const apiKeys = [];
    for (const record of page) {
      const config = pickConfig(configs, record.configId);
      apiKeys.push(toPublic(await presentable(ctx.context, config, record)));
    }
    return { apiKeys, total: matching.length, limit, offset };
  });
