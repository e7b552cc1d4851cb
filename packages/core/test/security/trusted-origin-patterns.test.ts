import { describe, expect, it } from "vitest";
import { globMatch } from "../../src/security/glob-match.ts";
import {
  isTrustedOrigin,
  matchesOriginPattern,
  MAX_MATCHED_URL_LENGTH,
} from "../../src/security/trusted-origins.ts";
import { testInstance } from "../support/instance.ts";

const checksOn = { advanced: { disableOriginCheck: false, disableCSRFCheck: false } };
const user = { name: "Ada", email: "ada@example.com", password: "password-1234" };

describe("glob matching of trusted-origin entries", () => {
  const cases: Array<[pattern: string, value: string, expected: boolean]> = [
    ["https://*.example.com", "https://a.example.com", true],
    ["https://*.example.com", "https://a.b.example.com", true],
    ["https://*.example.com", "https://example.com", false],
    ["https://*.example.com", "https://a.example.com.evil.io", false],
    ["https://*-*.example.com", "https://pr-12.example.com", true],
    ["https://*-*.example.com", "https://pr12.example.com", false],
    ["https://*-*-*.example.com", "https://a-b-c.example.com", true],
    ["https://*-*-*.example.com", "https://a-b.example.com", false],
    ["https://**.example.com", "https://a.example.com", true],
    ["https://app?.example.com", "https://app1.example.com", true],
    ["https://app?.example.com", "https://app12.example.com", false],
    // Case-sensitive, as the reference (the URL parser lower-cases hosts before they get here).
    ["*.example.com", "a.EXAMPLE.com", false],
    // `*` and `?` stay within a `/`-separated segment; `**` spans segments.
    ["https://*.example.com", "https://a/b.example.com", false],
    ["https://a?b.example.com", "https://a/b.example.com", false],
    ["exp://**", "exp://host/--/cb", true],
    ["/a/**/b", "/a/x/y/b", true],
    ["a/", "a", false],
    ["*", "", true],
    ["a*", "a", true],
    ["*a*a", "aa", true],
    ["*ab*ab", "abab", true],
    ["*ab*ab", "aba", false],
    ["x\\*y*", "x*yz", true],
    ["x\\*y*", "xzyz", false],
  ];
  it.each(cases)("%s on %s → %s", (pattern, value, expected) => {
    expect(globMatch(value, pattern)).toBe(expected);
  });

  // Regression guard: `https://*-*.example.com` as `^https://.*-.*\.example\.com$` took 2.6 s
  // on an 80,000-character host. The bound is generous; the result is what is asserted.
  it("answers an 80,000-character host against a multi-star pattern in linear time", () => {
    const near = `https://${"-".repeat(80_000)}.example.co`;
    const hit = `https://${"a-".repeat(40_000)}b.example.com`;
    const started = performance.now();
    expect(globMatch(near, "https://*-*.example.com")).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
    expect(globMatch(hit, "https://*-*-*.example.com")).toBe(true);
    expect(globMatch(near, "https://*-*-*-*.example.com")).toBe(false);
  });

  it("refuses a URL past the length cap before matching, and quickly", () => {
    const long = `https://${"a-".repeat(40_000)}b.example.com/cb`;
    const started = performance.now();
    expect(matchesOriginPattern(long, "https://*-*.example.com")).toBe(false);
    expect(isTrustedOrigin(long, ["https://*-*.example.com", "*-*.example.com"], true)).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
    const atCap = `https://a-b.example.com/${"x".repeat(MAX_MATCHED_URL_LENGTH - 24)}`;
    expect(atCap).toHaveLength(MAX_MATCHED_URL_LENGTH);
    expect(isTrustedOrigin(atCap, ["https://*-*.example.com"], false)).toBe(true);
    expect(isTrustedOrigin(`${atCap}x`, ["https://*-*.example.com"], false)).toBe(false);
  });
});

describe("custom-scheme entries (the reference's segment-boundary rule)", () => {
  const cases: Array<[url: string, expected: boolean]> = [
    ["myapp://host/cb", true],
    ["myapp://host/cb/", true],
    ["myapp://host/cb/done?x=1#y", true],
    ["myapp://HOST/cb", true],
    ["MYAPP://host/cb", true],
    ["myapp://host//cb", true],
    ["myapp://host/cbevil", false],
    ["myapp://host/cb-evil", false],
    ["myapp://host/cb/../evil", false],
    ["myapp://host/cb%2F..%2Fevil", false],
    ["myapp://host/", false],
    ["myapp://other/cb", false],
    ["otherapp://host/cb", false],
    ["https://host/cb", false],
  ];
  it.each(cases)("myapp://host/cb covers %s → %s", (url, expected) => {
    expect(matchesOriginPattern(url, "myapp://host/cb")).toBe(expected);
  });

  it("an entry without a path covers every path of its authority", () => {
    expect(matchesOriginPattern("myapp://host/any/where", "myapp://host")).toBe(true);
    expect(matchesOriginPattern("myapp://elsewhere/x", "myapp://host")).toBe(false);
  });

  it("refuses a callbackURL past the entry's path segment over HTTP (403 INVALID_CALLBACK_URL)", async () => {
    const t = testInstance({ ...checksOn, trustedOrigins: ["myapp://host/cb"] });
    await t.post("/sign-up/email", user);
    const signIn = (callbackURL: string) =>
      t.post("/sign-in/email", { email: user.email, password: user.password, callbackURL });
    const evil = await signIn("myapp://host/cbevil");
    expect(evil.status).toBe(403);
    expect(await evil.json()).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    const ok = await signIn("myapp://host/cb/done");
    expect(ok.status).toBe(200);
  });
});

describe("wildcard entries for custom schemes (the reference globs the whole URL)", () => {
  it("`*` covers one segment of the URL, `**` any number", () => {
    expect(matchesOriginPattern("exp://192.168.1.2:8081", "exp://*/*")).toBe(true);
    expect(matchesOriginPattern("exp://192.168.1.2:8081/--/cb", "exp://*/*")).toBe(false);
    expect(matchesOriginPattern("exp://192.168.1.2:8081/--/cb", "exp://**")).toBe(true);
    expect(matchesOriginPattern("myapp://host", "myapp://*")).toBe(true);
    expect(matchesOriginPattern("myapp://host/cb", "myapp://*")).toBe(false);
    expect(matchesOriginPattern("otherapp://host", "myapp://*")).toBe(false);
    // An http(s) URL is globbed by its origin: the path never counts.
    expect(matchesOriginPattern("https://a-b.example.com/x/y", "https://*-*.example.com")).toBe(true);
  });
});
