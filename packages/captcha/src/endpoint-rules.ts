/**
 * Which requests the captcha guards. A rule is a full auth path (`/sign-up/email`), matched
 * exactly, or a pattern with wildcards: `*` stands for any characters within one segment and
 * a `**` segment for any number of segments, zero included (spec, Plugins table: a rule
 * `/sign-up` does not cover `/sign-up/email`; write `/sign-up/email` or `/sign-up/**`).
 */

/** The endpoints guarded when `endpoints` is not given (reference defaults). */
export const DEFAULT_ENDPOINTS: readonly string[] = ["/sign-up/email", "/sign-in/email", "/request-password-reset"];

/** A compiled rule: does it cover this normalised auth path? */
export type EndpointRule = (path: string) => boolean;

/** `/a//b/` → `/a/b`: one slash between segments, a leading one, no trailing one. */
function tidy(path: string): string {
  const collapsed = `/${path}`.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 && collapsed.endsWith("/") ? collapsed.slice(0, -1) : collapsed;
}

/**
 * The pathname of an absolute, already serialised URL (`Request.url`) without parsing it again:
 * this runs on every request, guarded or not.
 */
function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  const end = Math.min(query < 0 ? url.length : query, hash < 0 ? url.length : hash);
  return url.slice(start, end);
}

/**
 * The request path the rules see: the raw pathname (no percent-decoding, the same reading
 * core routes on, so no spelling reaches a route without passing its rule) with `basePath`
 * cut off, doubled slashes collapsed and the trailing slash dropped (reference normalisation).
 */
export function authPathOf(url: string, basePath: string): string {
  const pathname = pathnameOf(url);
  const inside = basePath && (pathname === basePath || pathname.startsWith(`${basePath}/`));
  return tidy(inside ? pathname.slice(basePath.length) : pathname);
}

/** One segment pattern with `*` as a wildcard within the segment. */
function segmentMatcher(pattern: string): (segment: string) => boolean {
  if (!pattern.includes("*")) return (segment) => segment === pattern;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]*");
  const regex = new RegExp(`^${source}$`);
  return (segment) => regex.test(segment);
}

/** Compiles one rule. */
export function compileRule(rule: string): EndpointRule {
  const normalised = tidy(rule);
  if (!normalised.includes("*")) return (path) => path === normalised;
  const parts = normalised.split("/").slice(1);
  const steps = parts.map((part) => (part === "**" ? null : segmentMatcher(part)));
  return (path) => {
    const segments = path.split("/").slice(1);
    // reach[j]: the steps taken so far can consume exactly the first j segments. A table,
    // not backtracking, so a rule of many `**` costs O(steps × segments).
    let reach = Array.from({ length: segments.length + 1 }, (_, j) => j === 0);
    for (const step of steps) {
      const next = reach.map(() => false);
      for (let j = 0; j <= segments.length; j++) {
        if (!reach[j]) continue;
        if (step === null) for (let k = j; k <= segments.length; k++) next[k] = true;
        else if (j < segments.length && step(segments[j]!)) next[j + 1] = true;
      }
      reach = next;
    }
    return reach[segments.length] === true;
  };
}

/** Compiles the rule list into one test. */
export function compileRules(rules: readonly string[]): EndpointRule {
  const compiled = rules.map(compileRule);
  return (path) => compiled.some((test) => test(path));
}
