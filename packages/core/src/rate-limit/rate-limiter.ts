import type { AuthContext } from "../context.js";
import { authPath } from "../auth/request-path.js";
import { isProduction } from "../env.js";
import { assertIPAddressOptions, getClientIP } from "../ip.js";
import type { RateLimitRule } from "./options.js";
import { tooManyRequests } from "./response.js";
import { customRuleMatcher, knownWindows, resolveRule, type RuleTable } from "./rules.js";
import { selectStorage } from "./storage.js";

/** Decides one request: a 429 response when it is over its limit, else null. */
export type RateLimiter = (request: Request) => Promise<Response | null>;

/** Key prefix of the one bucket shared by every request whose client address is unknown. */
const NO_IP = "no-trusted-ip";

function checkRule(rule: Partial<RateLimitRule>, name: string): void {
  for (const field of ["window", "max"] as const) {
    const value = rule[field];
    if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value) || value < 0)) {
      throw new TypeError(`${name}.${field} must be a number of at least 0.`);
    }
  }
}

/** Compiles `rateLimit` and the plugins' rules once; misconfiguration is a TypeError here. */
function ruleTable(auth: AuthContext): RuleTable {
  const options = auth.options.rateLimit ?? {};
  checkRule(options, "rateLimit");
  const custom = Object.entries(options.customRules ?? {}).map(([pattern, rule]) => {
    if (rule && typeof rule === "object") checkRule(rule, `rateLimit.customRules["${pattern}"]`);
    return { matches: customRuleMatcher(pattern), rule };
  });
  return {
    // `||` as in the reference: 0 means "use the default".
    base: { window: options.window || 10, max: options.max || 100 },
    plugins: auth.plugins.map((plugin) => plugin.rateLimit ?? []).filter((rules) => rules.length > 0),
    custom,
  };
}

/**
 * The rate limiter `createAuth` runs on every request after `disabledPaths` and the schema
 * check, before routing (so unknown paths count too). Each request costs one `consume` on the
 * selected storage under `<ip>|<path>`; the storage decides in one atomic step. On by default
 * only when `NODE_ENV` is `production`; the configuration is checked either way, so a mistake
 * surfaces in development, not first in production.
 */
export function createRateLimiter(auth: AuthContext, now: () => number = () => Date.now()): RateLimiter {
  assertIPAddressOptions(auth.options.advanced?.ipAddress);
  const table = ruleTable(auth);
  const storage = selectStorage(auth, knownWindows(table), now);
  if (!(auth.options.rateLimit?.enabled ?? isProduction())) return async () => null;
  let warned = false;

  return async (request) => {
    const ip = getClientIP(request.headers, auth.options);
    // Without IP tracking there is no per-client key: limiting is skipped, as in the reference.
    if (!ip && auth.options.advanced?.ipAddress?.disableIpTracking) return null;
    if (!ip && !warned) {
      warned = true;
      auth.logger.warn(
        "Rate limiting could not determine a client IP and falls back to one shared bucket per path. " +
          "Forward the client address in a header and set advanced.ipAddress.ipAddressHeaders or trustedProxies.",
      );
    }
    const path = authPath(request.url, auth.basePath);
    const rule = await resolveRule(table, path, request);
    if (!rule) return null;
    const { allowed, retryAfter } = await storage.consume(`${ip ?? NO_IP}|${path}`, rule);
    return allowed ? null : tooManyRequests(retryAfter ?? rule.window);
  };
}
