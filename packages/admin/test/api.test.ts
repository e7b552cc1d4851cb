import { createAuth, memoryAdapter } from "@latchkey/core";
import { TEST_BASE_URL, TEST_SECRET } from "@latchkey/test-support";
import { describe, expect, it } from "vitest";
import { admin } from "../src/index.ts";
import { client, PASSWORD, SESSION_COOKIE } from "./instance.ts";

/** A typed instance on the memory adapter (`testAuth` answers the untyped `Auth`). */
const typedAuth = (cookieCache = false) =>
  createAuth({
    database: memoryAdapter(),
    secret: TEST_SECRET,
    baseURL: TEST_BASE_URL,
    emailAndPassword: { enabled: true },
    logger: { disabled: true },
    ...(cookieCache ? { session: { cookieCache: { enabled: true } } } : {}),
    plugins: [admin()],
  });

describe("auth.api and the memory adapter", () => {
  it("server code creates users and checks roles without a session; requests with headers need one", async () => {
    const auth = typedAuth();
    const made = await auth.api.createUser({ body: { email: "api@example.com", password: PASSWORD, name: "Api", role: "admin" } });
    expect(made.user).toMatchObject({ email: "api@example.com", role: "admin" });
    expect(await auth.api.userHasPermission({ body: { role: "admin", permissions: { user: ["ban"] } } })).toEqual({ error: null, success: true });
    expect(await auth.api.userHasPermission({ body: { userId: made.user.id, permissions: { user: ["ban"] } } })).toEqual({ error: null, success: true });
    await expect(auth.api.createUser({ body: { email: "x@example.com", name: "x" }, headers: new Headers({ cookie: "a=b" }) })).rejects.toMatchObject({ status: 401 });
    const browser = client(auth);
    await browser.post("/sign-in/email", { email: "api@example.com", password: PASSWORD });
    const headers = new Headers({ cookie: browser.jar.header()! });
    const listed = await auth.api.listUsers({ headers, query: { searchValue: "api", limit: 10 } });
    expect(listed.total).toBe(1);
    expect((await auth.api.getUser({ headers, query: { id: made.user.id } })).email).toBe("api@example.com");
  });

  it("with the cookie cache, impersonation and its end re-issue the cache for the right user", async () => {
    const auth = typedAuth(true);
    const root = await auth.api.createUser({ body: { email: "cache-root@example.com", password: PASSWORD, name: "R", role: "admin" } });
    const target = await auth.api.createUser({ body: { email: "cache-target@example.com", password: PASSWORD, name: "T" } });
    const browser = client(auth);
    await browser.post("/sign-in/email", { email: "cache-root@example.com", password: PASSWORD });
    expect(browser.jar.values.has("better-auth.session_data")).toBe(true);
    await browser.post("/admin/impersonate-user", { userId: target.user.id });
    expect((await browser.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(target.user.id);
    await browser.post("/admin/stop-impersonating");
    expect((await browser.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(root.user.id);
    expect(browser.jar.values.has(SESSION_COOKIE)).toBe(true);
  });
});
