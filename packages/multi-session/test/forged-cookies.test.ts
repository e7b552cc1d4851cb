import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth } from "@latchkey/test-support";
import { activeEmail, client, listedEmails, multiCookies, multiInstance, multiName, signUp } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await multiInstance("sqlite");
});
afterAll(() => t.close());

const sessionExists = async (token: string) => !!(await t.auth.$context.internalAdapter.findSession(token));

describe("forged and foreign multi cookies are ignored", () => {
  it("an unsigned or wrongly signed cookie is neither listed, switched to, revoked nor signed out", async () => {
    const victim = client(t.auth);
    const target = await signUp(victim, "forge-victim");
    const browser = client(t.auth);
    await signUp(browser, "forge-attacker");
    browser.jar.values.set(multiName(target), target);
    expect(await listedEmails(browser)).toEqual(["userforge-attacker@example.com"]);
    expect((await browser.post("/multi-session/set-active", { sessionToken: target })).status).toBe(401);
    browser.jar.values.set(multiName(target), encodeURIComponent(`${target}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`));
    expect((await browser.post("/multi-session/set-active", { sessionToken: target })).status).toBe(401);
    expect((await browser.post("/multi-session/revoke", { sessionToken: target })).status).toBe(401);
    expect(await activeEmail(browser)).toBe("userforge-attacker@example.com");
    await browser.post("/sign-out");
    expect(await sessionExists(target)).toBe(true);
  });

  it("a signed value under another session's name acts on neither (reference: it acts on the value's session)", async () => {
    const browser = client(t.auth);
    const a = await signUp(browser, "rename-a");
    const b = await signUp(browser, "rename-b");
    // Move b's signed value under a's name: the signature still verifies, the name no longer matches.
    browser.jar.values.set(multiName(a), browser.jar.values.get(multiName(b))!);
    const switched = await browser.post("/multi-session/set-active", { sessionToken: a });
    expect(switched.status).toBe(401);
    expect(switched.json).toEqual({ code: "INVALID_SESSION_TOKEN", message: "Invalid session token" });
    const revoked = await browser.post("/multi-session/revoke", { sessionToken: a });
    expect(revoked.status).toBe(401);
    expect(await sessionExists(a)).toBe(true);
    expect(await sessionExists(b)).toBe(true);
  });

  it("forged cookies and cookies of ended sessions do not count towards maximumSessions", async () => {
    const browser = client(t.auth);
    const ended = await signUp(browser, "count-ended");
    await t.auth.$context.internalAdapter.updateSession(ended, { expiresAt: new Date(Date.now() - 1000) });
    for (let i = 0; i < 5; i++) browser.jar.values.set(`better-auth.session_token_multi-forged${i}`, `forged${i}.x`);
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) tokens.push(await signUp(browser, `count${i}`));
    for (const token of tokens) expect(browser.jar.values.has(multiName(token))).toBe(true);
    expect(await listedEmails(browser)).toHaveLength(5);
    expect(multiCookies(browser).length).toBeGreaterThan(5);
  });
});
