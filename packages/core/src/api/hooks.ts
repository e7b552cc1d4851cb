import type { EndpointContext } from "./context.js";

/** A request hook: runs around endpoints (before or after) and may change what they do. */
export type HookMiddleware = (ctx: EndpointContext) => unknown;

/** A plugin hook with the endpoints it applies to. */
export interface HookEntry {
  matcher: (ctx: EndpointContext) => boolean;
  handler: HookMiddleware;
}

/** Wraps a function as a hook middleware (the reference's `createAuthMiddleware`). */
export const createAuthMiddleware = (fn: HookMiddleware): HookMiddleware => fn;
