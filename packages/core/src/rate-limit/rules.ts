import type { PluginRateLimitRule } from "../plugin.js";
import { globMatcher } from "../security/glob-match.js";
import type { RateLimitCustomRule, RateLimitRule } from "./options.js";

/**
 * The reference's built-in stricter limits (core.md §11.2). `/forget-password` is no core route
 * in 1.7.6, but the reference still limits it, and so does Latchkey (plugins may mount it).
 */
export const SPECIAL_RULES: readonly PluginRateLimitRule[] = [
  {
    window: 10,
    max: 3,
    pathMatcher: (path) =>
      path.startsWith("/sign-in") ||
      path.startsWith("/sign-up") ||
      path.startsWith("/change-password") ||
      path.startsWith("/change-email"),
  },
  {
    window: 60,
    max: 3,
    pathMatcher: (path) =>
      path === "/request-password-reset" ||
      path === "/send-verification-email" ||
      path.startsWith("/forget-password") ||
      path === "/email-otp/send-verification-otp" ||
      path === "/email-otp/request-password-reset",
  },
];

/**
 * A `customRules` key as a matcher. Keys holding `*` are the reference's globs (`*` within one
 * path segment, `**` across segments, `?` one character, `\` escapes; see glob-match.ts).
 * Other keys match the path exactly.
 */
export function customRuleMatcher(pattern: string): (path: string) => boolean {
  if (!pattern.includes("*")) return (path) => path === pattern;
  // No regular expression: `.*` per star backtracks, and the path is the client's to choose.
  return globMatcher(pattern);
}

/** The static part of rule resolution, compiled once at start-up. */
export interface RuleTable {
  base: RateLimitRule;
  plugins: readonly PluginRateLimitRule[][];
  custom: Array<{ matches: (path: string) => boolean; rule: RateLimitCustomRule }>;
}

/**
 * The rule for `path`, or null when the path is not limited. Precedence as in the reference:
 * the default, then the first special rule, then the first plugin with a matching rule, then
 * the first matching `customRules` key (`false`, or a function returning `false`, lifts the
 * limit; a function returning nothing keeps the rule so far).
 */
export async function resolveRule(
  table: RuleTable,
  path: string,
  request: Request,
): Promise<RateLimitRule | null> {
  let rule: RateLimitRule = table.base;
  const special = SPECIAL_RULES.find((r) => r.pathMatcher(path));
  if (special) rule = { window: special.window, max: special.max };
  for (const rules of table.plugins) {
    const hit = rules.find((r) => r.pathMatcher(path));
    if (hit) {
      rule = { window: hit.window, max: hit.max };
      break;
    }
  }
  const custom = table.custom.find((c) => c.matches(path));
  if (!custom) return rule;
  const resolved = typeof custom.rule === "function" ? await custom.rule(request, rule) : custom.rule;
  if (resolved === false) return null;
  return resolved ? { window: resolved.window, max: resolved.max } : rule;
}

/** Every window a rule can have before any request arrives (for pruning stored counters). */
export function knownWindows(table: RuleTable): number[] {
  const windows = [table.base.window, ...SPECIAL_RULES.map((r) => r.window)];
  for (const rules of table.plugins) windows.push(...rules.map((r) => r.window));
  for (const { rule } of table.custom) if (rule && typeof rule !== "function") windows.push(rule.window);
  return windows.filter((w) => Number.isFinite(w) && w > 0);
}
