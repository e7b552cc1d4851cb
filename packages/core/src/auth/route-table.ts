import type { Result, Router } from "hono/router";

/** A route's path split on `/`; segments starting with `:` capture one non-empty segment. */
type Pattern = readonly string[];

/** Paths core routes: literal segments and `:name` captures, nothing else. */
const ROUTABLE = /^(?:\/(?::[A-Za-z_]\w*|[\w\-.~%!$&'()+,;=@]*))+$/;

/**
 * The Hono router of the auth app. Endpoint paths are literal except for whole-segment
 * `:name` parameters, so a map lookup serves every static route (get-session included) and
 * the few parameterised ones are compared segment by segment. It replaces Hono's preset
 * routers, whose general machinery (regular expressions, wildcards, a trie fallback) these
 * paths never need, and keeps it out of edge bundles.
 */
export class RouteTable<T> implements Router<T> {
  readonly name = "RouteTable";
  readonly #exact = new Map<string, T>();
  readonly #patterns: Array<{ method: string; pattern: Pattern; handler: T }> = [];

  add(method: string, path: string, handler: T): void {
    if (!ROUTABLE.test(path)) throw new TypeError(`Route path "${path}" has segments other than literals and :params.`);
    if (path.includes("/:")) this.#patterns.push({ method, pattern: path.split("/"), handler });
    else this.#exact.set(`${method} ${path}`, handler);
  }

  match(method: string, path: string): Result<T> {
    const exact = this.#exact.get(`${method} ${path}`);
    if (exact !== undefined) return [[[exact, {}]]];
    const parts = path.split("/");
    for (const { method: m, pattern, handler } of this.#patterns) {
      if (m !== method || pattern.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let i = 0;
      for (; i < pattern.length; i++) {
        const segment = pattern[i]!;
        const part = parts[i]!;
        if (segment.startsWith(":") && part) params[segment.slice(1)] = part;
        else if (segment !== part) break;
      }
      if (i === pattern.length) return [[[handler, params]]];
    }
    return [[]];
  }
}
