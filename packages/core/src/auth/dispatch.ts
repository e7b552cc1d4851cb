import type { AuthContext } from "../context.js";
import type { Endpoint } from "../api/endpoint.js";
import { readBody, readQuery } from "../api/body.js";
import { execute, type HookChain } from "../api/execute.js";
import { toResponse } from "../api/response.js";
import { APIError } from "../errors/api-error.js";
import { originCheck } from "../security/origin-check.js";
import { createAuthCookies, type AuthCookies } from "../cookies/auth-cookies.js";
import { joinBaseURL, requestOrigin } from "./resolve-base.js";
import { isDynamicBaseURL, resolveDynamicOrigin } from "./dynamic-base.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A generic 500: no detail of the failure reaches the client. */
export const internalError = (): Response => new Response(null, { status: 500, statusText: "Internal Server Error" });

/**
 * The context a request runs with. With a configured base URL it is the shared one; with a
 * dynamic one (or none) the base URL and the cookie domain come from the request: its host
 * must be allowed (dynamic) and forwarded headers count only when trusted.
 */
export function contextResolver(auth: AuthContext): (request: Request) => AuthContext {
  if (auth.baseURL) return () => auth;
  const dynamic = isDynamicBaseURL(auth.options.baseURL) ? auth.options.baseURL : undefined;
  const cookies = new Map<string, AuthCookies>();
  return (request) => {
    const origin = dynamic ? resolveDynamicOrigin(request, auth.options, dynamic) : requestOrigin(request, auth.options);
    const baseURL = joinBaseURL(origin, auth.basePath);
    let authCookies = cookies.get(origin);
    if (!authCookies) {
      authCookies = createAuthCookies(auth.options, baseURL);
      // Bounded: with no allow-list the origin is whatever the client sent.
      if (cookies.size < 64) cookies.set(origin, authCookies);
    }
    const scoped: AuthContext = Object.create(auth) as AuthContext;
    scoped.baseURL = baseURL;
    scoped.authCookies = authCookies;
    scoped.trustedOrigins = [origin, ...auth.trustedOrigins];
    return scoped;
  };
}

/** Turns one HTTP request for an endpoint into a response (core's request pipeline). */
export type Dispatch = (endpoint: Endpoint, request: Request, params: Record<string, string>) => Promise<Response>;

/** Builds the HTTP entry for endpoints: body and query reading, the origin check, hooks, the endpoint. */
export function createDispatch(auth: AuthContext, hooks: HookChain, basePath: string): Dispatch {
  const resolve = contextResolver(auth);
  return async (endpoint: Endpoint, request: Request, params: Record<string, string>): Promise<Response> => {
    try {
      const context = resolve(request);
      const input = {
        path: endpoint.path,
        method: request.method,
        body: await readBody(request, endpoint.options.allowedMediaTypes ?? ["application/json"], endpoint.options.formMembers),
        query: readQuery(request.url),
        params,
        headers: request.headers,
        request,
      };
      // The origin check runs before hooks and the endpoint, on the raw input (reference
      // order), on the call's own context; reads (GET, HEAD, OPTIONS) skip it.
      return toResponse(await execute(endpoint, context, hooks, input, SAFE_METHODS.has(request.method) ? undefined : originCheck));
    } catch (error) {
      if (error instanceof APIError) return toResponse({ kind: "error", error, headers: new Headers() });
      auth.logger.error(`Unhandled error in ${request.method} ${basePath}${endpoint.path}`, error);
      await auth.options.onAPIError?.onError?.(error);
      return internalError();
    }
  };
}
