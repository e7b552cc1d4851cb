import type { AuthContext, SessionWithUser } from "../context.js";
import type { CookieAttributes } from "../options.js";
import type { CookieSpec } from "../cookies/auth-cookies.js";
import { decodeCookieValue, parseCookieHeader, serializeCookie } from "../cookies/serialize.js";
import { signCookieValue, verifySignedCookieValue } from "../crypto/hmac.js";
import { APIError } from "../errors/api-error.js";

/** Per-request state layered over the shared `AuthContext` (what the reference keeps on `ctx.context`). */
export interface RequestContext extends AuthContext {
  /** The session the request carries, once a session middleware or `/get-session` resolved it. */
  session: SessionWithUser | null;
  /** A session created during this request (sign-in, sign-up). */
  newSession: SessionWithUser | null;
  /** In after hooks: the endpoint's result, or the `APIError` it threw. */
  returned?: unknown;
  responseHeaders: Headers;
}

/**
 * What an endpoint handler, middleware and hook receive. `Extra` is what the endpoint's
 * middlewares guarantee on `context` (e.g. a non-null `session`).
 */
export interface EndpointContext<B = unknown, Q = unknown, Extra extends object = object> {
  /** Endpoint path relative to the base path, e.g. `/sign-in/email`. */
  path: string;
  method: string;
  body: B;
  query: Q;
  params: Record<string, string>;
  headers: Headers;
  request: Request | undefined;
  context: RequestContext & Extra;
  responseHeaders: Headers;
  /** Status of a successful answer. @default 200 */
  status: number;
  getCookie(name: string): string | undefined;
  /** The value of a signed cookie, or null when absent or its signature does not verify. */
  getSignedCookie(name: string): Promise<string | null>;
  setCookie(name: string, value: string, attributes?: CookieAttributes): void;
  setSignedCookie(name: string, value: string, attributes?: CookieAttributes): Promise<void>;
  /** Writes the cookie empty with `Max-Age=0`, dropping any earlier write of it in this response. */
  expireCookie(cookie: CookieSpec): void;
  setHeader(name: string, value: string): void;
  /** Builds the redirect error to throw: 302 with `Location`. */
  redirect(url: string): APIError;
}

/** Inputs of one endpoint call, from HTTP or from `auth.api`. */
export interface CallInput {
  path: string;
  method: string;
  body: unknown;
  query: unknown;
  params: Record<string, string>;
  headers: Headers;
  request: Request | undefined;
}

/** Builds the context of one call. Cookie parsing happens once, on first use. */
export function createEndpointContext(auth: AuthContext, input: CallInput): EndpointContext {
  const responseHeaders = new Headers();
  const context: RequestContext = Object.create(auth) as RequestContext;
  context.session = null;
  context.newSession = null;
  context.responseHeaders = responseHeaders;
  let cookies: Map<string, string> | undefined;
  const read = (name: string): string | undefined => {
    cookies ??= parseCookieHeader(ctx.headers.get("cookie"));
    return cookies.get(name);
  };
  const dropWrites = (name: string): void => {
    const kept = responseHeaders
      .getSetCookie()
      .filter((c) => !c.startsWith(`${name}=`) && !c.startsWith(`${name}.`));
    responseHeaders.delete("set-cookie");
    for (const c of kept) responseHeaders.append("set-cookie", c);
  };
  // Properties written out, not spread from `input`: V8 builds an object literal that starts
  // with a spread and goes on with closures through its slow path, which cost more per request
  // than the rest of this function together.
  const ctx: EndpointContext = {
    path: input.path,
    method: input.method,
    body: input.body,
    query: input.query,
    params: input.params,
    headers: input.headers,
    request: input.request,
    context,
    responseHeaders,
    status: 200,
    getCookie: (name) => {
      const raw = read(name);
      return raw === undefined ? undefined : decodeCookieValue(raw);
    },
    getSignedCookie: async (name) => {
      const raw = read(name);
      return raw ? verifySignedCookieValue(decodeCookieValue(raw), auth.secret) : null;
    },
    setCookie: (name, value, attributes) => {
      responseHeaders.append("set-cookie", serializeCookie(name, encodeURIComponent(value), attributes));
    },
    setSignedCookie: async (name, value, attributes) => {
      const signed = await signCookieValue(value, auth.secret);
      responseHeaders.append("set-cookie", serializeCookie(name, encodeURIComponent(signed), attributes));
    },
    expireCookie: (cookie) => {
      dropWrites(cookie.name);
      responseHeaders.append("set-cookie", serializeCookie(cookie.name, "", { ...cookie.attributes, maxAge: 0 }));
    },
    setHeader: (name, value) => responseHeaders.set(name, value),
    redirect: (url) => new APIError("FOUND", undefined, { location: url }),
  };
  return ctx;
}
