import type { Auth } from "@latchkey/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type ClientAnswer, type TestClient } from "../client.js";
import { rowCounts } from "../row-counts.js";
import { bodyCases, OVERSIZED_MARK, type BadInputCase } from "./body-cases.js";
import {
  CORE_EXPECTATIONS,
  expectationFor,
  type CaseExpectation,
  type CaseExpectations,
} from "./expectations.js";
import { queryCases } from "./query-cases.js";
import { fillPath, type BatteryRoute } from "./routes.js";

/** The instance the battery runs against (what `testAuth` returns fits). */
export interface BatteryInstance {
  auth: Auth;
  /** Headers for every request, e.g. a session cookie for routes that need one. */
  headers?: Record<string, string>;
  close?(): unknown;
}

/** What {@link badInputBattery} runs. */
export interface BadInputBatteryOptions {
  /** The describe block's title. @default "bad input" */
  name?: string;
  /** Makes the instance, once for the whole battery (no case may write, so they can share it). */
  instance: () => BatteryInstance | Promise<BatteryInstance>;
  routes: readonly BatteryRoute[];
  /** Expectations for every route (a route's own `expect` wins). */
  expect?: CaseExpectations;
  /** `Origin` on every request: `true` for the instance's own. @default none */
  origin?: string | boolean;
  /** Tables whose counts may change (e.g. `rateLimit` with database storage). */
  ignoreTables?: readonly string[];
  /** More assertions on every answer, e.g. that no session cookie was set. */
  check?: (answer: ClientAnswer, badCase: BadInputCase, route: BatteryRoute) => void | Promise<void>;
}

/** The cases the battery sends to one route. */
export function badInputCases(route: BatteryRoute): BadInputCase[] {
  return route.method.toUpperCase() === "GET"
    ? queryCases(route.validQuery ?? {})
    : bodyCases(route.validBody ?? {});
}

async function send(
  c: TestClient,
  route: BatteryRoute,
  badCase: BadInputCase,
  headers: Record<string, string>,
) {
  const all = new Headers(headers);
  if (badCase.contentType) all.set("content-type", badCase.contentType);
  return c.request(`${fillPath(route)}${badCase.query ?? ""}`, {
    method: route.method.toUpperCase(),
    headers: all,
    ...(badCase.body === undefined ? {} : { body: badCase.body }),
  });
}

/** The battery's rules for one answer (exported for the kit's own tests). */
export function assertAnswer(got: ClientAnswer, route: BatteryRoute, want: CaseExpectation): void {
  const body = got.json as { code?: unknown; message?: unknown } | undefined;
  const summary = { status: got.status, body: got.text.slice(0, 300) };
  expect(got.status, `never a 5xx: ${JSON.stringify(summary)}`).toBeLessThan(500);
  if (want.status !== undefined) expect([want.status].flat(), JSON.stringify(summary)).toContain(got.status);
  if (want.code) expect(body?.code, JSON.stringify(summary)).toBe(want.code);
  if (want.message !== undefined) expect(body?.message).toBe(want.message);
  if (got.status >= 400 && want.code === null) {
    expect(typeof body?.message, `a 4xx carries a JSON message: ${JSON.stringify(summary)}`).toBe("string");
  } else if (got.status >= 400 && !route.nonJSON) {
    expect(
      typeof body?.code === "string" && body.code.length > 0,
      `a 4xx carries a JSON code: ${JSON.stringify(summary)}`,
    ).toBe(true);
  }
  if (got.status >= 300 && got.status < 400)
    expect(got.headers.get("location"), "a redirect has a Location").toBeTruthy();
  // Validation never echoes what was submitted (STYLE.md, Errors).
  expect(got.text.includes(OVERSIZED_MARK.repeat(4)), "the answer echoes an oversized value").toBe(false);
  expect(Object.prototype).not.toHaveProperty("latchkeyPolluted");
}

/**
 * Registers vitest cases that send every route malformed, mistyped, oversized and
 * wrongly-typed input (bodies for POST and other body methods, odd queries for GET) and
 * require of each answer: a status under 500, a JSON body with a `code` on a 4xx (unless the
 * route is `nonJSON`), any expectation given for the case, and no row written in any table.
 *
 * @example
 * badInputBattery({
 *   instance: () => testAuth({ plugins: [oneTap()] }, { db: "sqlite" }),
 *   routes: [{ method: "POST", path: "/one-tap/callback", validBody: { idToken: "x" } }],
 * });
 */
export function badInputBattery(options: BadInputBatteryOptions): void {
  describe(options.name ?? "bad input", () => {
    let instance: BatteryInstance;
    let c: TestClient;
    beforeAll(async () => {
      instance = await options.instance();
      c = client(instance.auth, { origin: options.origin ?? false });
    });
    afterAll(async () => {
      await instance?.close?.();
    });

    for (const route of options.routes) {
      describe(`${route.method.toUpperCase()} ${route.path}`, () => {
        for (const badCase of badInputCases(route)) {
          const want = expectationFor(badCase.name, badCase.family, [
            route.expect,
            options.expect,
            CORE_EXPECTATIONS,
          ]);
          const title = `${badCase.name}${want.status ? ` → ${[want.status].flat().join("|")}` : ""}${want.code ? ` ${want.code}` : want.message ? ` "${want.message}"` : ""}`;
          if (want.skip) {
            it.skip(`${title} (${want.skip})`, () => {});
            continue;
          }
          it(title, async () => {
            const before = await rowCounts(instance.auth, options.ignoreTables);
            const headers = { ...instance.headers, ...route.headers };
            const got = await send(c, route, badCase, headers);
            assertAnswer(got, route, want);
            if (!want.writes)
              expect(await rowCounts(instance.auth, options.ignoreTables), "no row written").toEqual(before);
            await options.check?.(got, badCase, route);
          });
        }
      });
    }
  });
}
