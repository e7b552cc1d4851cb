import { Hono } from "hono";
import type { Endpoint } from "./endpoint.js";

/** Turns one HTTP request for an endpoint into a response (core's request pipeline). */
export type Dispatch = (endpoint: Endpoint, request: Request, params: Record<string, string>) => Promise<Response>;

/**
 * A Hono router of endpoints. `add` registers an endpoint both as an HTTP route and under
 * its `auth.api` name; core attaches its request pipeline when it mounts the router.
 *
 * @example
 * const router = createRouter().add("ok", endpoint("/ok", { method: "GET" }, () => ({ ok: true })));
 */
export class AuthRouter extends Hono {
  /** Endpoints by `auth.api` name. */
  readonly endpoints: Record<string, Endpoint> = {};
  #dispatch: Dispatch | undefined;

  /** Registers `endpoint` as `auth.api[name]` and, unless server-only, as a route. */
  add(name: string, endpoint: Endpoint): this {
    if (this.endpoints[name]) throw new TypeError(`Endpoint name "${name}" is registered twice.`);
    this.endpoints[name] = endpoint;
    if (endpoint.options.serverOnly) return this;
    const methods = Array.isArray(endpoint.options.method) ? endpoint.options.method : [endpoint.options.method];
    this.on(methods, endpoint.path, (c) => {
      if (!this.#dispatch) throw new TypeError("This router is not mounted by createAuth().");
      return this.#dispatch(endpoint, c.req.raw, c.req.param() as Record<string, string>);
    });
    return this;
  }

  /** Called by core when it mounts the router. */
  attach(dispatch: Dispatch): void {
    this.#dispatch = dispatch;
  }
}

/** Creates an empty endpoint router. */
export const createRouter = (): AuthRouter => new AuthRouter({ strict: true });
