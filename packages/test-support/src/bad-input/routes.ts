import { sampleBody, sampleQuery } from "./schema-sample.js";
import type { CaseExpectations } from "./expectations.js";

/** One route the battery attacks. */
export interface BatteryRoute {
  method: string;
  /** The path under the base path, with `:name` parameters (filled from `params`). */
  path: string;
  /** Values for the path's `:name` parameters. @default "x" for each */
  params?: Record<string, string>;
  /**
   * A body the route's validation accepts; its fields and their JSON types drive the
   * wrong-type, missing-field and oversized-string cases. Pick one the route then refuses or
   * answers without writing (an unknown provider, a bad token): the battery checks that no
   * case writes a row, the extra-field case included. @default `{}`
   */
  validBody?: Record<string, unknown>;
  /** A query the route accepts (GET routes); its keys drive the odd-query cases. */
  validQuery?: Record<string, string>;
  /** Answers may be non-JSON (redirects such as an OAuth callback's 302, an HTML page). */
  nonJSON?: boolean;
  /** Headers for this route's requests (after the battery's and the instance's). */
  headers?: Record<string, string>;
  /** Expected answers where the reference answers something specific, by case name or family. */
  expect?: CaseExpectations;
}

/** The shape of core's `Endpoint` the derivation reads (before and after the plugin contract change). */
export interface EndpointLike {
  path: string;
  options: { method: string | readonly string[]; body?: unknown; query?: unknown; serverOnly?: boolean };
}

/** How {@link routesFromEndpoints} picks and completes routes. */
export interface RouteDerivation {
  /** Only these endpoint names. */
  only?: readonly string[];
  /** Leave these endpoint names out. */
  skip?: readonly string[];
  /** Per endpoint name: fields that replace the derived ones (a valid body, params, expectations). */
  routes?: Record<string, Partial<BatteryRoute>>;
}

/**
 * Battery routes from an endpoints record (`{ name: { path, options: { method, body, query,
 * serverOnly } } }`): one per HTTP method, server-only endpoints left out, bodies and queries
 * sampled from their valibot schemas unless `routes[name]` gives them.
 */
export function routesFromEndpoints(
  endpoints: Record<string, EndpointLike>,
  derivation: RouteDerivation = {},
): BatteryRoute[] {
  const out: BatteryRoute[] = [];
  for (const [name, ep] of Object.entries(endpoints)) {
    if (ep.options.serverOnly) continue;
    if (derivation.only && !derivation.only.includes(name)) continue;
    if (derivation.skip?.includes(name)) continue;
    const validBody = sampleBody(ep.options.body);
    const validQuery = sampleQuery(ep.options.query);
    for (const method of [ep.options.method].flat()) {
      out.push({
        method,
        path: ep.path,
        ...(validBody ? { validBody } : {}),
        ...(validQuery ? { validQuery } : {}),
        ...derivation.routes?.[name],
      });
    }
  }
  return out;
}

/** The route's path with its `:name` parameters filled in. */
export function fillPath(route: BatteryRoute): string {
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(route.params?.[name] ?? "x"),
  );
}
