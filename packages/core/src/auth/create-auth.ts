import type { Hono } from "hono";
import type { AuthContext } from "../context.js";
import type { LatchkeyOptions } from "../options.js";
import { buildContext } from "./build-context.js";
import { buildApp, checkRequirements, collectEndpoints, initPlugins } from "./assemble.js";
import { coreEndpoints, type CoreEndpoints } from "./core-endpoints.js";
import { createDispatch, internalError } from "./dispatch.js";
import { buildHookChain } from "./hook-chain.js";
import type { InferAPI, InferSession, InferUser } from "./infer.js";
import { createServerAPI } from "./server-api.js";
import { createSchemaGate } from "./schema-gate.js";
import { createRateLimiter } from "../rate-limit/rate-limiter.js";
import { authPath } from "./request-path.js";

/** What `createAuth` returns; `O` is the options it was made with, which type `api` and `$Infer`. */
export interface Auth<O extends LatchkeyOptions = LatchkeyOptions> {
  /** The web-standard fetch handler: every auth route, under `basePath`. */
  handler: (request: Request) => Promise<Response>;
  /** The composed Hono app (mount it with `app.route("/", auth.app)`). */
  app: Hono;
  /** Every endpoint of core and the installed plugins as a server-side function, through the same validation and hooks. */
  api: InferAPI<CoreEndpoints, O>;
  /** Types only (the reference's `$Infer`): `typeof auth.$Infer.Session`, `typeof auth.$Infer.User`. */
  $Infer: { Session: InferSession<O>; User: InferUser<O> };
  $context: AuthContext;
  $ERROR_CODES: Record<string, string>;
  options: O;
  /** Creates the tables and columns this instance needs that are missing. */
  createTables(): Promise<void>;
}

/**
 * Creates an auth instance from Better Auth-compatible options.
 *
 * @example
 * const auth = createAuth({ database: kyselyAdapter(db), emailAndPassword: { enabled: true } });
 * export default { fetch: auth.handler };
 */
export function createAuth<O extends LatchkeyOptions>(options: O): Auth<O> {
  const context = buildContext(options);
  checkRequirements(context.plugins);
  const endpoints = collectEndpoints([
    { owner: "core", endpoints: coreEndpoints },
    ...context.plugins.map((p) => ({ owner: `plugin "${p.id}"`, endpoints: p.endpoints ?? {} })),
  ]);
  const hooks = buildHookChain(options, endpoints);
  const app = buildApp(options, context, endpoints, createDispatch(context, hooks, context.basePath));
  let initialised: Promise<void> | undefined;
  const ready = (): Promise<void> => (initialised ??= initPlugins(context));
  const schemaGate = createSchemaGate(context);
  const rateLimit = createRateLimiter(context);
  const disabled = new Set(options.disabledPaths ?? []);

  const handler = async (incoming: Request): Promise<Response> => {
    try {
      await ready();
      if (disabled.size && disabled.has(authPath(incoming.url, context.basePath))) {
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
    // The runtime record is built from the same endpoints the types are computed from.
    api: createServerAPI(context, hooks, endpoints, ready) as unknown as Auth<O>["api"],
    $Infer: {} as Auth<O>["$Infer"],
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
