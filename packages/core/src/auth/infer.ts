// Types only: what `createAuth(options)` exposes, computed from the options and the installed
// plugins. Kept shallow on purpose: each endpoint costs one mapped entry, so type-checking
// grows linearly with the plugin count (a `tools/bench` figure).
import type { Endpoint, Endpoints } from "../api/endpoint.js";
import type { DBField } from "../db/field.js";
import type { SessionFields, UserFields } from "../db/models.js";
import type { LatchkeyOptions } from "../options.js";

/** What every `auth.api` call may pass besides its input. */
export interface APICallOptions {
  /** The caller's request headers (cookies, Authorization), for endpoints that read them. */
  headers?: HeadersInit;
  params?: Record<string, string>;
  /** Answer with the `Response` the HTTP route would send. */
  asResponse?: boolean;
  /** Answer `{ headers, response }` so the caller can forward `Set-Cookie`. */
  returnHeaders?: boolean;
}

type BodyArg<B> = [B] extends [undefined] ? { body?: unknown } : undefined extends B ? { body?: B } : { body: B };
type QueryArg<Q> = [Q] extends [undefined]
  ? { query?: Record<string, unknown> }
  : undefined extends Q
    ? { query?: Q }
    : { query: Q };

/** The arguments of an `auth.api` call: the endpoint's body and query (schema input types) and the call options. */
export type APICallArgs<B = unknown, Q = unknown> = APICallOptions & BodyArg<B> & QueryArg<Q>;

type ArgsTuple<A> = object extends A ? [args?: A] : [args: A];

/** An `auth.api` function: the endpoint through validation and hooks, without HTTP. */
export interface APIFunction<R = unknown, B = unknown, Q = unknown> {
  (args: APICallArgs<B, Q> & { asResponse: true }): Promise<Response>;
  (args: APICallArgs<B, Q> & { returnHeaders: true }): Promise<{ headers: Headers; response: R }>;
  (...args: ArgsTuple<APICallArgs<B, Q>>): Promise<R>;
}

type APIOf<E> = E extends Endpoint<infer R, infer B, infer Q> ? APIFunction<R, B, Q> : never;

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

type PluginOf<O extends LatchkeyOptions> = NonNullable<O["plugins"]>[number];

/** The endpoints the options' plugins declare, by `auth.api` name. */
export type PluginEndpoints<O extends LatchkeyOptions> = UnionToIntersection<
  PluginOf<O> extends infer P ? (P extends { endpoints?: infer E } ? (E extends Endpoints ? E : object) : object) : object
>;

// ---- Rows as callers see them: core fields plus the configured additional fields ----

type FieldValue<F> = F extends { type: "string" }
  ? string
  : F extends { type: "number" }
    ? number
    : F extends { type: "boolean" }
      ? boolean
      : F extends { type: "date" }
        ? Date
        : F extends { type: "string[]" }
          ? string[]
          : F extends { type: "number[]" }
            ? number[]
            : F extends { type: readonly (infer S)[] }
              ? S
              : unknown;

type Returned<F> = { [K in keyof F as F[K] extends { returned: false } ? never : K]: F[K] };

/** Fields from an `additionalFields` record: `required: false` ones are optional and nullable. */
export type InferFields<F> = string extends keyof F
  ? object
  : {
      [K in keyof Returned<F> as Returned<F>[K] extends { required: false } ? never : K]: FieldValue<Returned<F>[K]>;
    } & {
      [K in keyof Returned<F> as Returned<F>[K] extends { required: false } ? K : never]?: FieldValue<Returned<F>[K]> | null;
    };

type Additional<O, Model extends string> = O extends { [M in Model]?: { additionalFields?: infer F } }
  ? F extends Record<string, DBField>
    ? InferFields<F>
    : object
  : object;

/** The user type of an instance made with options `O`. */
export type InferUser<O> = UserFields & Additional<O, "user">;
/** The session type of an instance made with options `O`. */
export type InferSessionRow<O> = SessionFields & Additional<O, "session">;
/** What `getSession` answers for an instance made with options `O` (the reference's `$Infer.Session`). */
export interface InferSession<O> {
  session: InferSessionRow<O>;
  user: InferUser<O>;
}

/** `auth.api` for core's endpoints `C` and options `O`: every endpoint, `getSession` typed from the options. */
export type InferAPI<C extends Endpoints, O extends LatchkeyOptions> = {
  [K in keyof C]: K extends "getSession"
    ? APIFunction<InferSession<O> | null, undefined, { disableCookieCache?: unknown; disableRefresh?: unknown } | undefined>
    : APIOf<C[K]>;
} & { [K in keyof PluginEndpoints<O>]: APIOf<PluginEndpoints<O>[K]> };
