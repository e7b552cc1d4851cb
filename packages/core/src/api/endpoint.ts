import type * as v from "valibot";
import type { EndpointContext } from "./context.js";

export type HTTPMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type AnySchema = v.GenericSchema<unknown, unknown>;
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

/** Runs before validation; throws to refuse or fills `ctx.context` (e.g. the session). */
export type EndpointMiddleware = (ctx: EndpointContext) => Promise<void> | void;

/** What an endpoint is: its method(s), input schemas and guards. */
export interface EndpointOptions<B extends AnySchema | undefined = undefined, Q extends AnySchema | undefined = undefined> {
  method: HTTPMethod | HTTPMethod[];
  body?: B;
  query?: Q;
  use?: EndpointMiddleware[];
  /** Request content types accepted for the body. @default ["application/json"] */
  allowedMediaTypes?: string[];
  /** Server calls must pass `headers` (the endpoint reads cookies). */
  requireHeaders?: boolean;
  /** Callable through `auth.api` only; never routed over HTTP. */
  serverOnly?: boolean;
}

/** An endpoint: an HTTP route and an `auth.api` function at once. */
export interface Endpoint<R = unknown> {
  readonly path: string;
  readonly options: EndpointOptions<AnySchema | undefined, AnySchema | undefined>;
  readonly handler: (ctx: EndpointContext) => Promise<R | Response> | R | Response;
}

/**
 * Declares an endpoint. The handler receives validated `body` and `query` and returns JSON
 * data (or a `Response`); it throws `APIError` to answer with an error.
 *
 * @example
 * const ok = endpoint("/ok", { method: "GET" }, () => ({ ok: true }));
 */
export function endpoint<R, B extends AnySchema | undefined = undefined, Q extends AnySchema | undefined = undefined>(
  path: string,
  options: EndpointOptions<B, Q>,
  handler: (ctx: EndpointContext<Out<B>, Out<Q>>) => Promise<R | Response> | R | Response,
): Endpoint<R> {
  return { path, options, handler: handler as Endpoint<R>["handler"] };
}
