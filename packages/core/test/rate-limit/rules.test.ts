import { describe, expect, it } from "vitest";
import type { LatchkeyPlugin, RateLimitRule } from "../../src/index.ts";
import { customRuleMatcher, resolveRule, SPECIAL_RULES, type RuleTable } from "../../src/rate-limit/rules.ts";
import { authPath as limitedPath } from "../../src/auth/request-path.ts";
import { limitedInstance, times } from "./instance.ts";

const request = new Request("http://localhost:3000/api/auth/x");
const table = (extra: Partial<RuleTable> = {}): RuleTable => ({
  base: { window: 10, max: 100 },
  plugins: [],
  custom: [],
  ...extra,
});
const custom = (rules: RuleTable["custom"][number]["rule"][], patterns: string[]): RuleTable["custom"] =>
  patterns.map((pattern, i) => ({ matches: customRuleMatcher(pattern), rule: rules[i]! }));

describe("built-in rules (reference core.md §11.2)", () => {
  const cases: Array<[string, RateLimitRule]> = [
    ["/sign-in/email", { window: 10, max: 3 }],
    ["/sign-in/social", { window: 10, max: 3 }],
    ["/sign-in", { window: 10, max: 3 }],
    // A prefix match, as in the reference: anything starting with /sign-in.
    ["/sign-inx", { window: 10, max: 3 }],
    ["/sign-up/email", { window: 10, max: 3 }],
    ["/change-password", { window: 10, max: 3 }],
    ["/change-email", { window: 10, max: 3 }],
    ["/request-password-reset", { window: 60, max: 3 }],
    ["/send-verification-email", { window: 60, max: 3 }],
    ["/forget-password", { window: 60, max: 3 }],
    ["/forget-password/email-otp", { window: 60, max: 3 }],
    ["/email-otp/send-verification-otp", { window: 60, max: 3 }],
    ["/email-otp/request-password-reset", { window: 60, max: 3 }],
    // Exact matches only for these: a longer path gets the default.
    ["/request-password-reset/extra", { window: 10, max: 100 }],
    ["/send-verification-email/x", { window: 10, max: 100 }],
    ["/get-session", { window: 10, max: 100 }],
    ["/ok", { window: 10, max: 100 }],
    ["/", { window: 10, max: 100 }],
  ];
  it.each(cases)("%s → %o", async (path, rule) => {
    expect(await resolveRule(table(), path, request)).toEqual(rule);
  });

  it("there are exactly the reference's two special rules", () => {
    expect(SPECIAL_RULES.map((r) => [r.window, r.max])).toEqual([
      [10, 3],
      [60, 3],
    ]);
  });
});

describe("precedence: default < special < first plugin < customRules", () => {
  const pluginA = [{ window: 5, max: 50, pathMatcher: (p: string) => p.startsWith("/sign-in") }];
  const pluginB = [
    { window: 7, max: 70, pathMatcher: (p: string) => p === "/other" },
    { window: 8, max: 80, pathMatcher: (p: string) => p.startsWith("/sign-in") },
  ];

  it("a plugin rule overrides the special rule; the first plugin with a match wins", async () => {
    expect(await resolveRule(table({ plugins: [pluginA, pluginB] }), "/sign-in/email", request)).toEqual({
      window: 5,
      max: 50,
    });
    expect(await resolveRule(table({ plugins: [pluginB, pluginA] }), "/sign-in/email", request)).toEqual({
      window: 8,
      max: 80,
    });
    expect(await resolveRule(table({ plugins: [pluginB] }), "/other", request)).toEqual({
      window: 7,
      max: 70,
    });
  });

  it("customRules override plugin rules; exact keys match only their path", async () => {
    const t = table({ plugins: [pluginA], custom: custom([{ window: 1, max: 1 }], ["/sign-in/email"]) });
    expect(await resolveRule(t, "/sign-in/email", request)).toEqual({ window: 1, max: 1 });
    expect(await resolveRule(t, "/sign-in/social", request)).toEqual({ window: 5, max: 50 });
  });

  it("`false` lifts the limit", async () => {
    expect(
      await resolveRule(table({ custom: custom([false], ["/sign-in/email"]) }), "/sign-in/email", request),
    ).toBeNull();
  });

  it("a function gets the request and the rule so far; false lifts it, nothing keeps it", async () => {
    const seen: Array<[string, RateLimitRule]> = [];
    const fn = (req: Request, current: RateLimitRule) => {
      seen.push([req.url, current]);
      return req.headers.get("x-vip") ? false : { window: 2, max: 2 };
    };
    const t = table({ custom: custom([fn], ["/sign-up/*"]) });
    expect(await resolveRule(t, "/sign-up/email", request)).toEqual({ window: 2, max: 2 });
    expect(seen).toEqual([[request.url, { window: 10, max: 3 }]]);
    const vip = new Request(request.url, { headers: { "x-vip": "1" } });
    expect(await resolveRule(t, "/sign-up/email", vip)).toBeNull();
    const nothing = (() => undefined) as unknown as () => false;
    expect(
      await resolveRule(table({ custom: custom([nothing], ["/sign-up/email"]) }), "/sign-up/email", request),
    ).toEqual({
      window: 10,
      max: 3,
    });
  });

  it("the first matching customRules key wins, in insertion order", async () => {
    const t = table({
      custom: custom(
        [
          { window: 1, max: 1 },
          { window: 2, max: 2 },
        ],
        ["/a/*", "/a/b"],
      ),
    });
    expect(await resolveRule(t, "/a/b", request)).toEqual({ window: 1, max: 1 });
  });
});

describe("customRules wildcards (the reference's glob: `*` stays within a path segment)", () => {
  const cases: Array<[string, string, boolean]> = [
    ["/sign-in/*", "/sign-in/email", true],
    ["/sign-in/*", "/sign-in/", true],
    ["/sign-in/*", "/sign-in", false],
    ["/admin/*", "/admin/users", true],
    ["/admin/*", "/admin/users/list", false],
    ["/admin/**", "/admin/users/list", true],
    ["*", "/anything/at/all", false],
    ["**", "/anything/at/all", true],
    ["/a/*/c", "/a/b/x/c", false],
    ["/a/**/c", "/a/b/x/c", true],
    ["/a/?/c*", "/a/b/c", true],
    ["/a/?/c*", "/a/bb/c", false],
    // Without `*` a key is an exact path, `?` included.
    ["/a/?", "/a/b", false],
    ["/a/?", "/a/?", true],
    ["/a.b/*", "/aXb/c", false],
    ["/a\\*b*", "/a*b", true],
    ["/a\\*b*", "/axb", false],
  ];
  it.each(cases)("%s on %s → %s", (pattern, path, expected) => {
    expect(customRuleMatcher(pattern)(path)).toBe(expected);
  });
});

describe("the path a rule and key use", () => {
  const cases: Array<[string, string, string]> = [
    ["http://h/api/auth/sign-in/email", "/api/auth", "/sign-in/email"],
    ["http://h/api/auth/sign-in/email/", "/api/auth", "/sign-in/email"],
    ["http://h/api/auth/sign-in/email//", "/api/auth", "/sign-in/email"],
    ["http://h/api/auth", "/api/auth", "/"],
    ["http://h/api/auth/", "/api/auth", "/"],
    ["http://h/api/auth/ok?x=1", "/api/auth", "/ok"],
    ["http://h/api/authx/ok", "/api/auth", "/api/authx/ok"],
    ["http://h/elsewhere", "/api/auth", "/elsewhere"],
    ["http://h/sign-in/email", "", "/sign-in/email"],
    ["http://h/", "", "/"],
  ];
  it.each(cases)("%s with basePath %j → %s", (url, basePath, expected) => {
    expect(limitedPath(url, basePath)).toBe(expected);
  });
});

describe("rules through auth.handler", () => {
  it("defaults: 3 sign-ins per 10 s, 100 other requests", async () => {
    const { statuses } = limitedInstance();
    expect(await statuses(4, "/sign-in/email", { method: "POST", body: "{}" })).toEqual([400, 400, 400, 429]);
    expect(await statuses(101, "/ok")).toEqual([...times(100, 200), 429]);
  });

  it("rateLimit.window and max set the default; 0 means the reference default", async () => {
    expect(await limitedInstance({ rateLimit: { max: 2 } }).statuses(3, "/ok")).toEqual([200, 200, 429]);
    const zero = limitedInstance({ rateLimit: { max: 0, window: 0 } });
    expect(await zero.statuses(101, "/ok")).toEqual([...times(100, 200), 429]);
  });

  it("a plugin's rule applies to its paths", async () => {
    const plugin: LatchkeyPlugin = {
      id: "p",
      rateLimit: [{ window: 60, max: 1, pathMatcher: (p) => p === "/ok" }],
    };
    const { statuses } = limitedInstance({ plugins: [plugin] });
    expect(await statuses(2, "/ok")).toEqual([200, 429]);
  });

  it("customRules: a rule, false, and a function of the request", async () => {
    const { statuses, send } = limitedInstance({
      rateLimit: {
        customRules: {
          "/ok": { window: 60, max: 2 },
          "/sign-in/*": false,
          "/get-*": (req) =>
            req.headers.get("x-tier") === "gold" ? { window: 60, max: 5 } : { window: 60, max: 1 },
        },
      },
    });
    expect(await statuses(3, "/ok")).toEqual([200, 200, 429]);
    expect(await statuses(6, "/sign-in/email", { method: "POST", body: "{}" })).toEqual(times(6, 400));
    expect((await send("/get-session")).status).toBe(200);
    expect((await send("/get-session")).status).toBe(429);
    // Same key, a larger limit for this request: 2 counted so far, so 3 more pass.
    const gold = { ip: "198.51.100.1", headers: { "x-tier": "gold" } };
    expect(await statuses(6, "/get-session", gold)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("each path and each client address is its own bucket", async () => {
    const { statuses } = limitedInstance({ rateLimit: { max: 1 } });
    expect(await statuses(2, "/ok")).toEqual([200, 429]);
    expect(await statuses(2, "/get-session")).toEqual([200, 429]);
    expect(await statuses(2, "/ok", { ip: "198.51.100.9" })).toEqual([200, 429]);
    // Trailing slashes are the same path for the limiter (Hono 404s them as routing).
    expect(await statuses(1, "/ok/")).toEqual([429]);
  });
});
