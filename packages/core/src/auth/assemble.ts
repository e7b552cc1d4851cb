import { HonoBase as Hono } from "hono/hono-base";
import type { BlankEnv, BlankSchema } from "hono/types";
import type { AuthContext } from "../context.js";
import type { LatchkeyOptions } from "../options.js";
import type { Endpoint, Endpoints } from "../api/endpoint.js";
import type { LatchkeyPlugin } from "../plugin.js";
import { internalError, type Dispatch } from "./dispatch.js";
import { routerPath } from "./request-path.js";
import { RouteTable } from "./route-table.js";

/** Every endpoint by `auth.api` name; refuses one name twice, or two endpoints on one method and path. */
export function collectEndpoints(
  sources: Array<{ owner: string; endpoints: Endpoints }>,
): Record<string, Endpoint> {
  const byName: Record<string, Endpoint> = {};
  const routes = new Map<string, string>();
  for (const { owner, endpoints } of sources) {
    for (const [name, ep] of Object.entries(endpoints)) {
      if (Object.hasOwn(byName, name))
        throw new TypeError(`Endpoint "${name}" of ${owner} is already defined.`);
      if (!ep.path.startsWith("/"))
        throw new TypeError(`Endpoint "${name}" of ${owner} has a path without a leading "/".`);
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

/** Refuses to start when a plugin's `requires` names a plugin that is not installed. */
export function checkRequirements(plugins: readonly LatchkeyPlugin[]): void {
  const ids = new Set(plugins.map((p) => p.id));
  for (const plugin of plugins) {
    const missing = (plugin.requires ?? []).filter((id) => !ids.has(id));
    if (!missing.length) continue;
    const names = missing.map((id) => `"${id}"`).join(", ");
    throw new TypeError(`Plugin "${plugin.id}" needs the plugin ${names}: add it to \`plugins\`.`);
  }
}

/** Runs each plugin's `init` once, in order, and takes the services and providers it publishes. */
export async function initPlugins(context: AuthContext): Promise<void> {
  for (const plugin of context.plugins) {
    const out = await plugin.init?.(context);
    if (!out) continue;
    for (const { key, value } of out.services ?? []) {
      if (context.services.has(key.id)) {
        throw new TypeError(
          `Plugin "${plugin.id}" publishes the service "${key.id}", which another plugin already published.`,
        );
      }
      context.services.set(key.id, value);
    }
    if (out.socialProviders?.length)
      context.socialProviders = [...out.socialProviders, ...context.socialProviders];
    if (out.socialProviderFactories) {
      context.socialProviderFactories = {
        ...context.socialProviderFactories,
        ...out.socialProviderFactories,
      };
    }
  }
}

/**
 * The one Hono app: every routable endpoint under the base path, each dispatching into this
 * instance's pipeline (endpoints are data, so two instances never share a route).
 */
export function buildApp(
  options: LatchkeyOptions,
  context: AuthContext,
  endpoints: Record<string, Endpoint>,
  dispatch: Dispatch,
): Hono<BlankEnv, BlankSchema, "/"> {
  // Routing reads the path undecoded, as disabledPaths and the rate limit do (request-path.ts).
  // Hono's base class with core's own router: no preset router machinery in edge bundles.
  const app = new Hono<BlankEnv, BlankSchema, "/">({
    getPath: routerPath(options.advanced?.skipTrailingSlashes ?? false),
    router: new RouteTable(),
  });
  for (const ep of Object.values(endpoints)) {
    if (ep.options.serverOnly) continue;
    app.on([ep.options.method].flat(), `${context.basePath}${ep.path}`, (c) =>
      dispatch(ep, c.req.raw, c.req.param() as Record<string, string>),
    );
  }
  app.notFound(() => new Response(null, { status: 404, statusText: "Not Found" }));
  app.onError((error) => {
    context.logger.error("Unhandled error", error);
    return internalError();
  });
  return app;
}
