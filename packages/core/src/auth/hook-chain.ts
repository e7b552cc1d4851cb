import type { Endpoint } from "../api/endpoint.js";
import type { EndpointContext } from "../api/context.js";
import type { HookChain } from "../api/execute.js";
import type { HookEntry, HookMatcher, HookMiddleware } from "../api/hooks.js";
import type { LatchkeyOptions } from "../options.js";

/** A hook with its matcher resolved to the mounted endpoints it runs around. */
export interface ResolvedHook {
  endpoints: "*" | ReadonlySet<Endpoint>;
  when?: (ctx: EndpointContext) => boolean;
  handler: HookMiddleware;
  /** The application's own hook (`options.hooks`), whose error codes are its own. */
  application?: boolean;
}

/** The endpoints one matcher entry names: an `auth.api` name, a path, or a path prefix ending in `*`. */
function matchEntry(entry: string, endpoints: Record<string, Endpoint>): Endpoint[] {
  const named = Object.hasOwn(endpoints, entry) ? endpoints[entry] : undefined;
  if (named) return [named];
  if (!entry.startsWith("/")) return [];
  const prefix = entry.endsWith("*") ? entry.slice(0, -1) : null;
  return Object.values(endpoints).filter((ep) => (prefix === null ? ep.path === entry : ep.path.startsWith(prefix)));
}

function resolveMatcher(matcher: HookMatcher, endpoints: Record<string, Endpoint>, owner: string): ResolvedHook["endpoints"] {
  if (matcher === "*") return "*";
  if (!Array.isArray(matcher)) {
    // The reference's `matcher: (ctx) => boolean` cannot be checked at start: name the endpoints.
    throw new TypeError(
      `A hook of ${owner} has a matcher that is not "*" or a list of endpoint names and paths; use \`when\` for a test at call time.`,
    );
  }
  const set = new Set<Endpoint>();
  for (const entry of matcher) {
    const found = matchEntry(entry, endpoints);
    if (!found.length) throw new TypeError(`A hook of ${owner} names "${entry}", which matches no mounted endpoint.`);
    for (const ep of found) set.add(ep);
  }
  return set;
}

const resolveHook = (hook: HookEntry, endpoints: Record<string, Endpoint>, owner: string): ResolvedHook => ({
  endpoints: resolveMatcher(hook.matcher, endpoints, owner),
  ...(hook.when ? { when: hook.when } : {}),
  handler: hook.handler,
});

/**
 * The hooks around endpoints, the user's first, then each plugin's in order, with every
 * matcher resolved against `endpoints` (the names and paths of everything mounted).
 */
export function buildHookChain(options: LatchkeyOptions, endpoints: Record<string, Endpoint>): HookChain {
  const chain: HookChain = { before: [], after: [] };
  if (options.hooks?.before) chain.before.push({ endpoints: "*", handler: options.hooks.before, application: true });
  if (options.hooks?.after) chain.after.push({ endpoints: "*", handler: options.hooks.after, application: true });
  for (const plugin of options.plugins ?? []) {
    const owner = `plugin "${plugin.id}"`;
    for (const hook of plugin.hooks?.before ?? []) chain.before.push(resolveHook(hook, endpoints, owner));
    for (const hook of plugin.hooks?.after ?? []) chain.after.push(resolveHook(hook, endpoints, owner));
  }
  return chain;
}
