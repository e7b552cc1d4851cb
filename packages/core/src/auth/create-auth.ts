import { Hono } from "hono";
import type { AuthContext } from "../context.js";
import type { LatchkeyOptions } from "../options.js";
import type { Endpoint } from "../api/endpoint.js";
import type { HookChain } from "../api/execute.js";
import type { AuthRouter } from "../api/router.js";
import { buildContext } from "./build-context.js";
import { coreRouter } from "./core-router.js";
import { createDispatch, internalError } from "./dispatch.js";
import { createServerAPI, type APIFunction } from "./server-api.js";
import { createSchemaGate } from "./schema-gate.js";
import { createRateLimiter } from "../rate-limit/rate-limiter.js";

/** What `createAuth` returns. */
export interface Auth {
  /** The web-standard fetch handler: every auth route, under `basePath`. */
  handler: (request: Request) => Promise<Response>;
  /** The composed Hono app (mount it with `app.route("/", auth.app)`). */
  app: Hono;
  /** Every endpoint as a server-side function, through the same validation and hooks. */
  api: Record<string, APIFunction>;
  $context: AuthContext;
  $ERROR_CODES: Record<string, string>;
  options: LatchkeyOptions;
  /** Creates the tables and columns this instance needs that are missing. */
  createTables(): Promise<void>;
}

function hookChain(options: LatchkeyOptions): HookChain {
  const always = (): boolean => true;
  const chain: HookChain = { before: [], after: [] };
  if (options.hooks?.before) chain.before.push({ matcher: always, handler: options.hooks.before });
  if (options.hooks?.after) chain.after.push({ matcher: always, handler: options.hooks.after });
  for (const plugin of options.plugins ?? []) {
    chain.before.push(...(plugin.hooks?.before ?? []));
    chain.after.push(...(plugin.hooks?.after ?? []));
  }
  return chain;
}

/** Refuses two endpoints on one method and path, or one `auth.api` name twice. */
function collectEndpoints(routers: Array<{ owner: string; router: AuthRouter }>): Record<string, Endpoint> {
  const byName: Record<string, Endpoint> = {};
  const routes = new Map<string, string>();
  for (const { owner, router } of routers) {
    for (const [name, ep] of Object.entries(router.endpoints)) {
      if (byName[name]) throw new TypeError(`Endpoint "${name}" of ${owner} is already defined.`);
      byName[name] = ep;
      if (ep.options.serverOnly) continue;
      for (const method of [ep.options.method].flat()) {
        const key = `${method} ${ep.path}`;
        const prior = routes.get(key);
        if (prior) throw new TypeError(`${owner} mounts ${key}, which ${prior} already serves.`);
        routes.set(key, owner);
      }
    }
  }
  return byName;
}

/**
 * Creates an auth instance from Better Auth-compatible options.
 *
 * @example
 * const auth = createAuth({ database: kyselyAdapter(db), emailAndPassword: { enabled: true } });
 * export default { fetch: auth.handler };
 */
export function createAuth(options: LatchkeyOptions): Auth {
  const context = buildContext(options);
  const hooks = hookChain(options);
  const routers = [{ owner: "core", router: coreRouter() }];
  for (const plugin of context.plugins) {
    if (plugin.routes) routers.push({ owner: `plugin "${plugin.id}"`, router: plugin.routes(context) });
  }
  const endpoints = collectEndpoints(routers);
  const dispatch = createDispatch(context, hooks, context.basePath);
  const app = new Hono({ strict: !options.advanced?.skipTrailingSlashes });
  for (const { router } of routers) {
    router.attach(dispatch);
    app.route(context.basePath || "/", router);
  }
  app.notFound(() => new Response(null, { status: 404, statusText: "Not Found" }));
  app.onError((error) => {
    context.logger.error("Unhandled error", error);
    return internalError();
  });

  let initialised: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (initialised ??= (async () => {
      for (const plugin of context.plugins) {
        const out = await plugin.init?.(context);
        if (out && out.context) Object.assign(context, out.context);
      }
    })());
  const schemaGate = createSchemaGate(context);
  const rateLimit = createRateLimiter(context);
  const disabled = new Set((options.disabledPaths ?? []).map((p) => `${context.basePath}${p}`));

  const handler = async (incoming: Request): Promise<Response> => {
    try {
      await ready();
      if (disabled.size && disabled.has(new URL(incoming.url).pathname)) {
        return new Response("Not Found", { status: 404 });
      }
      const refused = await schemaGate();
      // Reference order: the rate limit runs after the schema check and before plugins'
      // onRequest and routing (unknown paths and HEAD count too); its 429 skips onResponse.
      const limited = refused ? null : await rateLimit(incoming);
      if (limited) return limited;
      let request = incoming;
      if (!refused) {
        for (const plugin of context.plugins) {
          const out = await plugin.onRequest?.(request, context);
          if (out?.response) return out.response;
          if (out?.request) request = out.request;
        }
      }
      // The reference routes HEAD nowhere: it answers 404 where Hono would answer a GET route.
      if (request.method === "HEAD") return new Response(null, { status: 404, statusText: "Not Found" });
      let response = refused ?? (await app.fetch(request));
      for (const plugin of context.plugins) {
        const out = await plugin.onResponse?.(response, context);
        if (out?.response) response = out.response;
      }
      return response;
    } catch (error) {
      context.logger.error("Unhandled error", error);
      return internalError();
    }
  };

  return {
    handler,
    app,
    api: createServerAPI(context, hooks, endpoints, ready),
    $context: context,
    $ERROR_CODES: context.errorCodes,
    options,
    createTables: async () => {
      if (!context.adapter.createTables) throw new TypeError(`The ${context.adapter.id} adapter cannot create tables.`);
      await context.adapter.createTables();
      schemaGate.reset();
    },
  };
}
