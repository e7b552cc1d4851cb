import type { AuthContext, PasswordContext } from "../context.js";
import type { LatchkeyOptions } from "../options.js";
import type { SchemaDefinition } from "../db/field.js";
import { coreSchema, rateLimitSchema } from "../db/core-schema.js";
import { resolveSchema } from "../db/resolve-schema.js";
import { createInternalAdapter } from "../db/internal-adapter.js";
import { createAuthCookies } from "../cookies/auth-cookies.js";
import { resolveCookieCache } from "../cookies/cookie-cache-options.js";
import { createLogger } from "../logger.js";
import { generateId } from "../crypto/random.js";
import { hashPassword, verifyPassword } from "../crypto/password.js";
import { BASE_ERROR_CODES } from "../errors/codes.js";
import { env, isDevelopmentOrTest } from "../env.js";
import { originOf } from "../security/trusted-origins.js";
import { configuredBaseURL, joinBaseURL, normalizeBasePath } from "./resolve-base.js";
import { resolveSecret } from "./secret.js";
import { warnWithoutBaseURL } from "./base-url-warning.js";
import { allowedHostOrigins, isDynamicBaseURL } from "./dynamic-base.js";
import { markStorageOnlyTables, resolveStoreRouting } from "../db/storage-options.js";
import { socialProviderContext } from "../oauth2/providers.js";

/** Schema sources in order: core, then each plugin; two plugins may not create the same new table. */
function schemaSources(options: LatchkeyOptions): Array<{ owner: string; schema: SchemaDefinition }> {
  const sources: Array<{ owner: string; schema: SchemaDefinition }> = [{ owner: "core", schema: coreSchema }];
  if (options.rateLimit?.storage === "database") sources.push({ owner: "core", schema: rateLimitSchema });
  const created = new Map<string, string>();
  for (const plugin of options.plugins ?? []) {
    if (!plugin.schema) continue;
    for (const model of Object.keys(plugin.schema)) {
      if (model in coreSchema) continue;
      const owner = created.get(model);
      if (owner) throw new TypeError(`Plugins "${owner}" and "${plugin.id}" both declare table "${model}".`);
      created.set(model, plugin.id);
    }
    sources.push({ owner: `plugin "${plugin.id}"`, schema: plugin.schema });
  }
  return sources;
}

/**
 * Core and plugin error codes. A plugin may not give one of core's codes another message. A code
 * two plugins declare keeps the later plugin's message, as the reference merges `$ERROR_CODES`
 * (its captcha and passkey plugins both declare `UNKNOWN_ERROR`, with different messages, and
 * are installed together). Each plugin still throws its own message: the table is only
 * `auth.$ERROR_CODES` and the set of declared codes.
 */
function mergeErrorCodes(options: LatchkeyOptions): Record<string, string> {
  const codes: Record<string, string> = { ...BASE_ERROR_CODES };
  for (const plugin of options.plugins ?? []) {
    for (const [code, message] of Object.entries(plugin.errorCodes ?? {})) {
      if (typeof message !== "string") continue;
      if (Object.hasOwn(BASE_ERROR_CODES, code) && codes[code] !== message) {
        throw new TypeError(`Error code "${code}" of plugin "${plugin.id}" conflicts with an existing message.`);
      }
      codes[code] = message;
    }
  }
  return codes;
}

function idGenerator(options: LatchkeyOptions): AuthContext["generateId"] {
  const option = options.advanced?.database?.generateId;
  if (option === false) return () => false;
  if (option === "uuid") return () => crypto.randomUUID();
  if (typeof option === "function") return (args) => option(args) || generateId(args.size);
  return (args) => generateId(args.size);
}

function passwordContext(options: LatchkeyOptions): PasswordContext {
  const custom = options.emailAndPassword?.password;
  return {
    hash: custom?.hash ?? hashPassword,
    verify: custom?.verify ?? verifyPassword,
    config: {
      minPasswordLength: options.emailAndPassword?.minPasswordLength ?? 8,
      maxPasswordLength: options.emailAndPassword?.maxPasswordLength ?? 128,
    },
  };
}

/** Resolves the options into the shared context: secret, schema, adapter, cookies, defaults. */
export function buildContext(options: LatchkeyOptions): AuthContext {
  if (!options.database) throw new TypeError("createAuth needs a `database` (an adapter factory such as kyselyAdapter(db)).");
  const logger = createLogger(options.logger);
  const basePath = normalizeBasePath(options.basePath);
  const staticBase = configuredBaseURL(options);
  warnWithoutBaseURL(options, staticBase, logger);
  const baseURL = staticBase ? joinBaseURL(staticBase, basePath) : "";
  const plugins = options.plugins ?? [];
  const ids = new Set<string>();
  for (const plugin of plugins) {
    if (ids.has(plugin.id)) throw new TypeError(`Plugin "${plugin.id}" is installed twice.`);
    ids.add(plugin.id);
  }
  const stores = resolveStoreRouting(options, logger);
  const schema = markStorageOnlyTables(resolveSchema(schemaSources(options), {
    user: options.user,
    session: options.session,
    account: options.account,
    verification: options.verification,
    rateLimit: options.rateLimit,
  }), stores);
  const adapter = options.database({ schema, logger });
  const generate = idGenerator(options);
  const sessionConfig = {
    expiresIn: options.session?.expiresIn ?? 604_800,
    updateAge: options.session?.updateAge ?? 86_400,
    freshAge: options.session?.freshAge ?? 86_400,
    cookieCache: resolveCookieCache(options.session?.cookieCache, logger),
  };
  const envOrigins = (env("BETTER_AUTH_TRUSTED_ORIGINS") ?? "").split(",").map((o) => o.trim()).filter(Boolean);
  const listed = Array.isArray(options.trustedOrigins) ? options.trustedOrigins : [];
  const own = baseURL ? originOf(baseURL) : null;
  const allowedHosts = isDynamicBaseURL(options.baseURL) ? allowedHostOrigins(options.baseURL) : [];
  return {
    options,
    appName: options.appName ?? "Better Auth",
    baseURL,
    basePath,
    secret: resolveSecret(options, logger),
    logger,
    adapter,
    secondaryStorage: options.secondaryStorage,
    internalAdapter: createInternalAdapter({
      adapter,
      schema,
      hooks: [...plugins.map((p) => p.databaseHooks ?? {}), options.databaseHooks ?? {}],
      generateId: generate,
      sessionExpiresIn: sessionConfig.expiresIn,
      validateUserInfo: options.user?.validateUserInfo,
      verification: { disableCleanup: options.verification?.disableCleanup },
      stores,
    }),
    schema,
    authCookies: createAuthCookies(options, baseURL || undefined),
    sessionConfig,
    password: passwordContext(options),
    trustedOrigins: [...(own ? [own] : []), ...allowedHosts, ...listed, ...envOrigins],
    plugins,
    services: new Map(),
    checkErrorCodes: isDevelopmentOrTest(),
    errorCodes: mergeErrorCodes(options),
    generateId: generate,
    hasPlugin: (id) => ids.has(id),
    ...socialProviderContext(options),
  };
}
