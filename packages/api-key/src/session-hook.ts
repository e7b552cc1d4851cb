import { getClientIP, toOutput, type EndpointContext, type HookEntry, type SessionWithUser } from "@latchkey/core";
import { API_KEY_ERROR_CODES } from "./error-codes.js";
import { sweepExpiredKeys } from "./expired-sweep.js";
import type { ResolvedConfig } from "./options.js";
import { validateApiKey } from "./verify-key.js";

const fail = API_KEY_ERROR_CODES.fail;

/** The key a request presents to a configuration: its getter, else the first of its headers that is set. */
function presentedKey(ctx: EndpointContext, config: ResolvedConfig): unknown {
  if (config.customAPIKeyGetter) return config.customAPIKeyGetter(ctx);
  for (const header of config.apiKeyHeaders) {
    const value = ctx.headers.get(header);
    if (value) return value;
  }
  return null;
}

/** The first configuration with sessions from keys whose key the request presents. */
function findPresented(ctx: EndpointContext, configs: readonly ResolvedConfig[]): { key: unknown; config: ResolvedConfig } | null {
  for (const config of configs) {
    if (!config.enableSessionForAPIKeys) continue;
    const key = presentedKey(ctx, config);
    if (key) return { key, config };
  }
  return null;
}

/**
 * The session a key stands for: the key's user, with a session whose id is the key's id and
 * whose token is the key. It lasts as long as the key does, or `session.expiresIn` seconds
 * for a key that never expires. (The reference adds `session.expiresIn` as milliseconds, so
 * its sessions from keys claim to end about ten minutes later; DIVERGENCES.md.)
 */
function sessionFor(ctx: EndpointContext, user: SessionWithUser["user"], key: string, record: { id: string; referenceId: string; expiresAt: Date | null }): SessionWithUser {
  const now = new Date();
  const expiresAt = record.expiresAt ? new Date(record.expiresAt) : new Date(now.getTime() + ctx.context.sessionConfig.expiresIn * 1000);
  return {
    user,
    session: {
      id: record.id,
      token: key,
      userId: record.referenceId,
      userAgent: ctx.request?.headers.get("user-agent") ?? null,
      ipAddress: ctx.request ? getClientIP(ctx.request.headers, ctx.context.options) : null,
      createdAt: now,
      updatedAt: now,
      expiresAt,
    },
  };
}

/**
 * Before every endpoint, for configurations with `enableSessionForAPIKeys`: a request that
 * presents a key in the API-key header (or through the getter) is authenticated as the key's
 * user. The key is checked and counted as `verifyApiKey` does; a refused key refuses the
 * request. `/get-session` answers the session straight away.
 */
export function apiKeySessionHook(configs: readonly ResolvedConfig[]): HookEntry {
  return {
    matcher: "*",
    when: (ctx) => findPresented(ctx, configs) !== null,
    handler: async (ctx) => {
      const found = findPresented(ctx, configs);
      if (!found) return undefined;
      const { key, config } = found;
      if (typeof key !== "string") throw fail("INVALID_API_KEY_GETTER_RETURN_TYPE", "BAD_REQUEST");
      if (key.length < config.defaultKeyLength) throw fail("INVALID_API_KEY", "FORBIDDEN");
      if (config.customAPIKeyValidator && !(await config.customAPIKeyValidator({ ctx, key }))) {
        throw fail("INVALID_API_KEY", "FORBIDDEN");
      }
      const { record } = await validateApiKey(ctx, configs, { key, lookup: config, expectedConfigId: config.configId, runCustomValidator: false });
      sweepExpiredKeys(ctx.context);
      if (config.references !== "user") throw fail("INVALID_REFERENCE_ID_FROM_API_KEY", "UNAUTHORIZED");
      const user = await ctx.context.internalAdapter.findUserById(record.referenceId);
      if (!user) throw fail("INVALID_REFERENCE_ID_FROM_API_KEY", "UNAUTHORIZED");
      const session = sessionFor(ctx, user, key, record);
      ctx.context.session = session;
      if (ctx.path !== "/get-session") return undefined;
      const { schema } = ctx.context;
      return { session: toOutput(schema, "session", session.session), user: toOutput(schema, "user", session.user) };
    },
  };
}
