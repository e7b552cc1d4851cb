import type { EndpointContext } from "./context.js";

/** A request hook: runs around endpoints (before or after) and may change what they do. */
export type HookMiddleware = (ctx: EndpointContext) => unknown;

/**
 * The endpoints a hook runs around: `"*"` for every endpoint, or a list of `auth.api` names
 * (`"signInEmail"`) and paths (`"/callback/:id"`, or a prefix ending in `*`: `"/sign-in/*"`).
 * `createAuth` resolves the list against the mounted endpoints and refuses an entry that
 * matches none, so a typo or a missing plugin is a start-up error, not a silent no-op.
 */
export type HookMatcher = "*" | readonly string[];

/** A plugin hook with the endpoints it applies to. */
export interface HookEntry {
  matcher: HookMatcher;
  /** A finer test at call time (e.g. on the body), after `matcher` selected the endpoint. */
  when?: (ctx: EndpointContext) => boolean;
  handler: HookMiddleware;
}

/** Wraps a function as a hook middleware (the reference's `createAuthMiddleware`). */
export const createAuthMiddleware = (fn: HookMiddleware): HookMiddleware => fn;
