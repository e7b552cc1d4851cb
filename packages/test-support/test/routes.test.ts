import { endpoint } from "@latchkey/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { badInputCases, fillPath, routesFromEndpoints, sampleBody, sampleQuery } from "../src/index.ts";

const noop = (): null => null;

/** A record shaped as a plugin's `endpoints` (core's endpoint objects). */
const endpoints = {
  signIn: endpoint(
    "/thing/sign-in",
    {
      method: "POST",
      body: v.object({
        email: v.pipe(v.string(), v.email()),
        password: v.pipe(v.string(), v.minLength(8)),
        rememberMe: v.optional(v.boolean()),
        scopes: v.optional(v.array(v.string())),
        kind: v.picklist(["a", "b"]),
        retries: v.pipe(v.number(), v.minValue(2)),
        meta: v.optional(v.record(v.string(), v.string())),
      }),
    },
    noop,
  ),
  list: endpoint(
    "/thing/list",
    { method: "GET", query: v.optional(v.object({ limit: v.string(), q: v.string() })) },
    noop,
  ),
  both: endpoint("/thing/:id", { method: ["GET", "POST"] }, noop),
  internal: endpoint("/thing/internal", { method: "POST", serverOnly: true }, noop),
};

describe("routesFromEndpoints", () => {
  it("gives one route per method, leaves server-only endpoints out and samples bodies and queries from the schemas", () => {
    expect(routesFromEndpoints(endpoints)).toEqual([
      {
        method: "POST",
        path: "/thing/sign-in",
        validBody: {
          email: "ada@example.com",
          password: "xxxxxxxx",
          rememberMe: true,
          scopes: ["x"],
          kind: "a",
          retries: 2,
          meta: {},
        },
      },
      { method: "GET", path: "/thing/list", validQuery: { limit: "x", q: "x" } },
      { method: "GET", path: "/thing/:id" },
      { method: "POST", path: "/thing/:id" },
    ]);
  });

  it("takes only, skip and per-name replacements", () => {
    const routes = routesFromEndpoints(endpoints, {
      skip: ["list"],
      only: ["signIn", "list"],
      routes: { signIn: { validBody: { email: "e" }, nonJSON: true } },
    });
    expect(routes).toEqual([
      { method: "POST", path: "/thing/sign-in", validBody: { email: "e" }, nonJSON: true },
    ]);
  });

  it("works on a plain record (no core objects needed)", () => {
    const plain = {
      a: { path: "/a", options: { method: "POST" } },
      b: { path: "/b", options: { method: ["GET"] } },
    };
    expect(routesFromEndpoints(plain)).toEqual([
      { method: "POST", path: "/a" },
      { method: "GET", path: "/b" },
    ]);
  });

  it("fills path parameters, encoded, with x by default", () => {
    expect(fillPath({ method: "GET", path: "/callback/:id/x/:other", params: { id: "a/b" } })).toBe(
      "/callback/a%2Fb/x/x",
    );
  });

  it("samples only object schemas as bodies", () => {
    expect(sampleBody(v.string())).toBeUndefined();
    expect(sampleBody(undefined)).toBeUndefined();
    expect(sampleQuery(v.object({ n: v.number(), o: v.object({ a: v.string() }) }))).toEqual({
      n: "1",
      o: '{"a":"x"}',
    });
  });
});

describe("badInputCases", () => {
  it("derives wrong types, missing fields and oversized strings from the valid body", () => {
    const names = badInputCases({ method: "POST", path: "/p", validBody: { s: "x", n: 1 } }).map(
      (c) => c.name,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        "missing field: s",
        "missing field: n",
        "wrong type: s as number",
        "wrong type: s as boolean",
        "wrong type: s as array",
        "wrong type: s as object",
        "wrong type: n as string",
        "oversized string: s",
        "content type: text/plain",
        "content type: multipart/form-data",
        "content type: application/xml",
        "no body, no content type",
        "empty JSON body",
      ]),
    );
    expect(names).not.toContain("wrong type: s as string");
    expect(names).not.toContain("oversized string: n");
  });

  it("sends odd queries to GET routes, keeping the other valid keys", () => {
    const cases = badInputCases({ method: "GET", path: "/g", validQuery: { a: "1", b: "2" } });
    const repeated = cases.find((c) => c.name === "repeated key: a")!;
    expect(repeated.query).toBe("?b=2&a=1&a=12");
    expect(cases.map((c) => c.family)).toEqual(
      expect.arrayContaining(["huge value", "array key", "invalid percent-encoding", "control characters"]),
    );
    expect(badInputCases({ method: "GET", path: "/g" }).map((c) => c.name)).toContain("repeated key: x");
  });
});
