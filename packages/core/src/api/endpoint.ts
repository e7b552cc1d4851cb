import type * as v from "valibot";
import type { EndpointContext } from "./context.js";

export type HTTPMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type AnySchema = v.GenericSchema<unknown, unknown> | v.GenericSchemaAsync<unknown, unknown>;
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;
type In<S> = S extends AnySchema ? v.InferInput<S> : undefined;

/**
 * Runs before the handler (after validation); throws to refuse or fills `ctx.context`. The
 * type parameter names what it guarantees on `ctx.context` once it returns, so a handler
 * behind `sessionMiddleware` sees a non-null `ctx.context.session`.
 */
export type EndpointMiddleware<Provides extends object = object> = ((ctx: EndpointContext) => Promise<void> | void) & {
  /** Type-level only: what the middleware puts on `ctx.context`. */
  readonly __provides?: Provides;
};

/** The intersection of what a list of middlewares provides. */
type Provided<U> = U extends readonly [infer Head, ...infer Rest]
  ? (Head extends EndpointMiddleware<infer P> ? P : object) & Provided<Rest>
  : object;

/** What an endpoint is: its method(s), input schemas and guards. */
export interface EndpointOptions<
  B extends AnySchema | undefined = AnySchema | undefined,
  Q extends AnySchema | undefined = AnySchema | undefined,
  U extends readonly EndpointMiddleware[] = readonly EndpointMiddleware[],
> {
  method: HTTPMethod | readonly HTTPMethod[];
  body?: B;
  query?: Q;
  use?: U;
  /** Request content types accepted for the body. @default ["application/json"] */
  allowedMediaTypes?: string[];
  /**
   * How a url-encoded form member given more than once is read: `"last"` keeps the last value
   * (the reference's reader); `"all"` keeps every value, in order, as an array (a member given
   * once stays a string), for routes that must refuse repeats (RFC 6749 §3.1) or accept lists.
   * @default "last"
   */
  formMembers?: "last" | "all";
  /** Server calls must pass `headers` (the endpoint reads cookies). */
  requireHeaders?: boolean;
  /** Callable through `auth.api` only; never routed over HTTP. */
  serverOnly?: boolean;
}

/**
 * An endpoint: an HTTP route and an `auth.api` function at once. `R` is what it answers,
 * `Body` and `Query` what a caller passes (the schemas' input types).
 */
export interface Endpoint<R = unknown, Body = unknown, Query = unknown> {
  readonly path: string;
  readonly options: EndpointOptions;
  readonly handler: (ctx: EndpointContext) => Promise<R | Response> | R | Response;
  /** Type-level only: the caller's input. */
  readonly $input?: { body: Body; query: Query };
}

/** A plugin's (or core's) endpoints by `auth.api` name. */
export type Endpoints = Record<string, Endpoint>;

/**
 * Declares an endpoint. The handler receives validated `body` and `query` and returns JSON
 * data (or a `Response`); it throws `APIError` to answer with an error. Middlewares in `use`
 * run in order before it, and narrow `ctx.context` by what they guarantee.
 *
 * @example
 * const me = endpoint("/me", { method: "GET", use: [sessionMiddleware] }, (ctx) => ctx.context.session.user);
 */
export function endpoint<
  R,
  B extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  const U extends readonly EndpointMiddleware[] = [],
>(
  path: string,
  options: EndpointOptions<B, Q, U>,
  handler: (ctx: EndpointContext<Out<B>, Out<Q>, Provided<U>>) => Promise<R | Response> | R | Response,
): Endpoint<Exclude<R, Response>, In<B>, In<Q>> {
  return { path, options, handler: handler as unknown as Endpoint<Exclude<R, Response>>["handler"] };
}
