import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind, TestAuth } from "@latchkey/test-support";
import { activeEmail, client, listedEmails, multiCookies, multiInstance, multiName, signUp } from "./instance.ts";

const KINDS: DatabaseKind[] = ["postgres", "mysql"];

describe.each(KINDS)("list, set-active and revoke on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await multiInstance(kind);
  });
  afterAll(() => t.close());

  it("switches between three users and revokes the current and a non-current session", async () => {
    const browser = client(t.auth);
    const a = await signUp(browser, "db-a");
    const b = await signUp(browser, "db-b");
    const c = await signUp(browser, "db-c");
    expect(await listedEmails(browser)).toEqual(["userdb-a@example.com", "userdb-b@example.com", "userdb-c@example.com"]);

    const switched = await browser.post("/multi-session/set-active", { sessionToken: b });
    expect(switched.status).toBe(200);
    expect(switched.json).toMatchObject({ session: { token: b }, user: { email: "userdb-b@example.com" } });
    expect(await activeEmail(browser)).toBe("userdb-b@example.com");

    expect((await browser.post("/multi-session/revoke", { sessionToken: a })).json).toEqual({ status: true });
    expect(await t.auth.$context.internalAdapter.findSession(a)).toBeNull();
    expect(await activeEmail(browser)).toBe("userdb-b@example.com");

    expect((await browser.post("/multi-session/revoke", { sessionToken: b })).json).toEqual({ status: true });
    expect(await activeEmail(browser)).toBe("userdb-c@example.com");
    expect(multiCookies(browser)).toEqual([multiName(c)]);
    expect(await listedEmails(browser)).toEqual(["userdb-c@example.com"]);

    const refused = await browser.post("/multi-session/set-active", { sessionToken: a });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual({ code: "INVALID_SESSION_TOKEN", message: "Invalid session token" });
  });
});
