import { describe, expect, it } from "vitest";
import { authPathOf, compileRule } from "../src/endpoint-rules.ts";

describe("endpoint rules match full paths (spec, Plugins table)", () => {
  const table: Array<[rule: string, path: string, covered: boolean]> = [
    ["/sign-up/email", "/sign-up/email", true],
    ["/sign-up", "/sign-up/email", false],
    ["/sign-up/email", "/sign-up/email-otp", false],
    ["/sign-up/*", "/sign-up/email", true],
    ["/sign-up/*", "/sign-up/a/b", false],
    ["/sign-up/*", "/sign-up", false],
    ["/sign-up/**", "/sign-up", true],
    ["/sign-up/**", "/sign-up/email", true],
    ["/sign-up/**", "/sign-up/a/b/c", true],
    // The reference's glob also takes `/sign-upx` for `/sign-up/**` (row 94); a segment is a segment.
    ["/sign-up/**", "/sign-upx", false],
    ["/list/**", "/list-sessions", false],
    ["/**", "/anything/at/all", true],
    ["/*", "/sign-up/email", false],
    ["/sign-*/email", "/sign-up/email", true],
    ["/sign-*/email", "/sign-in/email", true],
    ["/sign-*/email", "/sign-in/social", false],
    ["/**/email", "/sign-up/email", true],
    ["/**/email", "/email", true],
    ["/sign-up/**/x", "/sign-up/x", true],
    ["/a/**/**/b", "/a/1/2/3/b", true],
    ["/sign-up*", "/sign-up/email", false],
    ["/sign-up.email", "/sign-upxemail", false],
    ["/sign-up/email/", "/sign-up/email", true],
  ];
  it.each(table)("%s covers %s: %s", (rule, path, covered) => {
    expect(compileRule(rule)(path)).toBe(covered);
  });

  it("a rule of many `**` stays fast", () => {
    const rule = compileRule(`/${"**/".repeat(40)}z`);
    const path = `/${"a/".repeat(200)}b`;
    const started = performance.now();
    expect(rule(path)).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe("the path the rules see", () => {
  it.each([
    ["http://h/api/auth/sign-up/email", "/sign-up/email"],
    ["http://h/api/auth/sign-up/email/", "/sign-up/email"],
    ["http://h/api/auth//sign-up//email", "/sign-up/email"],
    ["http://h/api/auth", "/"],
    ["http://h/api/authx/sign-up/email", "/api/authx/sign-up/email"],
    ["http://h/api/auth/sign%2Dup/email?x=1", "/sign%2Dup/email"],
    ["http://h:3000/api/auth/sign-in/email#frag", "/sign-in/email"],
    ["http://h:3000/api/auth/sign-in/email?next=/a/b#x", "/sign-in/email"],
    ["http://h", "/"],
  ])("%s → %s", (url, path) => {
    expect(authPathOf(url, "/api/auth")).toBe(path);
  });
});
