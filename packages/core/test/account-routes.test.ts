import { describe, expect, it } from "vitest";
import type { LatchkeyOptions } from "../src/index.ts";
import { cookiePair, findCookie, testInstance } from "./support/instance.ts";

const user = { name: "Ada", email: "ada@example.com", password: "password-1234" };

async function signedUp(options: Partial<LatchkeyOptions> = {}) {
  const t = testInstance(options);
  const res = await t.post("/sign-up/email", user);
  const cookie = cookiePair(findCookie(res, "better-auth.session_token")!);
  const { user: created } = await res.json();
  const as = (path: string, body: unknown = {}) => t.post(path, body, { cookie });
  return { ...t, cookie, as, userId: created.id as string };
}

describe("update-user and update-session", () => {
  it("changes name and image, re-issues the session cookie, refuses email", async () => {
    const t = await signedUp();
    const res = await t.as("/update-user", {
      name: "Ada L.",
      image: "https://img.example/a.png",
      emailVerified: true,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: true });
    expect(findCookie(res, "better-auth.session_token")).toBeDefined();
    expect(t.store.user![0]).toMatchObject({
      name: "Ada L.",
      image: "https://img.example/a.png",
      emailVerified: false,
    });
    const email = await t.as("/update-user", { email: "x@example.com" });
    expect(email.status).toBe(400);
    expect(await email.json()).toEqual({
      code: "EMAIL_CAN_NOT_BE_UPDATED",
      message: "Email can not be updated",
    });
    const none = await t.as("/update-user", { unknown: 1 });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ message: "No fields to update" });
    const wrong = await t.as("/update-user", { name: 5 });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).code).toBe("VALIDATION_ERROR");
    expect(t.store.user![0]!.name).toBe("Ada L.");
    expect((await t.post("/update-user", { name: "x" })).status).toBe(401);
  });

  it("honours additional fields: defaults, required, input: false, returned: false", async () => {
    const t = testInstance({
      user: {
        additionalFields: {
          plan: { type: "string", defaultValue: "free", input: false },
          nickname: { type: "string", required: true },
          secretNote: { type: "string", required: false, returned: false },
        },
      },
    });
    const missing = await t.post("/sign-up/email", user);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ code: "MISSING_FIELD", message: "nickname is required" });
    const forced = await t.post("/sign-up/email", { ...user, nickname: "a", plan: "pro" });
    expect(forced.status).toBe(200);
    const body = await forced.json();
    expect(body.user).toMatchObject({ nickname: "a", plan: "free" });
    const cookie = cookiePair(findCookie(forced, "better-auth.session_token")!);
    const upgrade = await t.post("/update-user", { plan: "pro" }, { cookie });
    expect(upgrade.status).toBe(400);
    expect(await upgrade.json()).toEqual({
      code: "FIELD_NOT_ALLOWED",
      message: "plan is not allowed to be set",
    });
    expect((await t.post("/update-user", { secretNote: "hidden" }, { cookie })).status).toBe(200);
    expect(t.store.user![0]!.secretNote).toBe("hidden");
    const session = await (await t.request("/get-session", { headers: { cookie } })).json();
    expect(session.user).not.toHaveProperty("secretNote");
    expect(session.user.plan).toBe("free");
  });

  it("updates additional session fields", async () => {
    const t = await signedUp({
      session: { additionalFields: { theme: { type: "string", required: false } } },
    });
    const res = await t.as("/update-session", { theme: "dark" });
    expect(res.status).toBe(200);
    expect((await res.json()).session.theme).toBe("dark");
    expect(await (await t.as("/update-session", { nothing: 1 })).json()).toEqual({
      message: "No fields to update",
    });
  });
});

describe("password routes", () => {
  it("changes the password with the current one, and refuses a wrong one", async () => {
    const t = await signedUp();
    const wrong = await t.as("/change-password", {
      currentPassword: "nope-nope-nope",
      newPassword: "new-password-1",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    const short = await t.as("/change-password", { currentPassword: user.password, newPassword: "short" });
    expect((await short.json()).code).toBe("PASSWORD_TOO_SHORT");
    const ok = await t.as("/change-password", {
      currentPassword: user.password,
      newPassword: "new-password-1",
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token: null, user: { email: user.email } });
    expect((await t.post("/sign-in/email", { email: user.email, password: user.password })).status).toBe(401);
    expect((await t.post("/sign-in/email", { email: user.email, password: "new-password-1" })).status).toBe(
      200,
    );
  });

  it("revokes every session and issues a new one with revokeOtherSessions", async () => {
    const t = await signedUp();
    await t.post("/sign-in/email", { email: user.email, password: user.password });
    expect(t.count("session")).toBe(2);
    const res = await t.as("/change-password", {
      currentPassword: user.password,
      newPassword: "new-password-1",
      revokeOtherSessions: true,
    });
    const { token } = await res.json();
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(t.store.session!.map((s) => s.token)).toEqual([token]);
    expect(findCookie(res, "better-auth.session_token")).toContain(token);
  });

  it("sets a password only when the user has none", async () => {
    const t = await signedUp();
    const res = await t.as("/set-password", { newPassword: "another-password" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "PASSWORD_ALREADY_SET",
      message: "User already has a password set",
    });
    t.store.account![0]!.password = null;
    expect(await (await t.as("/set-password", { newPassword: "another-password" })).json()).toEqual({
      status: true,
    });
    t.store.account!.length = 0;
    expect(await (await t.as("/set-password", { newPassword: "third-password" })).json()).toEqual({
      status: true,
    });
    expect(t.store.account![0]).toMatchObject({ providerId: "credential", accountId: t.userId });
    expect((await t.post("/sign-in/email", { email: user.email, password: "third-password" })).status).toBe(
      200,
    );
  });

  it("verifies a password", async () => {
    const t = await signedUp();
    expect(await (await t.as("/verify-password", { password: user.password })).json()).toEqual({
      status: true,
    });
    expect((await (await t.as("/verify-password", { password: "wrong-password" })).json()).code).toBe(
      "INVALID_PASSWORD",
    );
  });
});

describe("session routes", () => {
  it("lists live sessions and refuses a stale session with SESSION_NOT_FRESH", async () => {
    const t = await signedUp();
    await t.post("/sign-in/email", { email: user.email, password: user.password });
    const list = await (await t.request("/list-sessions", { headers: { cookie: t.cookie } })).json();
    expect(list).toHaveLength(2);
    expect(list[0]).toHaveProperty("token");
    for (const s of t.store.session!) s.createdAt = new Date(Date.now() - 2 * 86_400_000);
    const stale = await t.request("/list-sessions", { headers: { cookie: t.cookie } });
    expect(stale.status).toBe(403);
    expect(await stale.json()).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
  });

  it("revokes one own session, ignores another user's, and revokes the others or all", async () => {
    const t = await signedUp();
    const second = await (
      await t.post("/sign-in/email", { email: user.email, password: user.password })
    ).json();
    const other = await (
      await t.post("/sign-up/email", { name: "B", email: "b@example.com", password: "password-1234" })
    ).json();
    expect(await (await t.as("/revoke-session", { token: other.token })).json()).toEqual({ status: true });
    expect(t.store.session!.some((s) => s.token === other.token)).toBe(true);
    await t.as("/revoke-session", { token: second.token });
    expect(t.store.session!.some((s) => s.token === second.token)).toBe(false);
    await t.post("/sign-in/email", { email: user.email, password: user.password });
    await t.as("/revoke-other-sessions");
    const mine = t.store.session!.filter((s) => s.userId === t.userId);
    expect(mine).toHaveLength(1);
    await t.as("/revoke-sessions");
    expect(t.store.session!.filter((s) => s.userId === t.userId)).toHaveLength(0);
    expect(t.store.session!.some((s) => s.token === other.token)).toBe(true);
  });
});

describe("validateUserInfo and database hooks", () => {
  it("passes the source and refuses with the hook's code", async () => {
    const seen: unknown[] = [];
    const t = testInstance({
      user: {
        validateUserInfo: ({ user: u, source }) => {
          seen.push(source);
          return String(u.email).endsWith("@blocked.example")
            ? { error: "domain_blocked", errorDescription: "Domain blocked" }
            : undefined;
        },
      },
    });
    const res = await t.post("/sign-up/email", { ...user, email: "x@blocked.example" });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: "domain_blocked", message: "Domain blocked" });
    expect(t.count("user")).toBe(0);
    expect((await t.post("/sign-up/email", user)).status).toBe(200);
    expect(seen[0]).toEqual({ method: "email-password", action: "create-user" });
  });

  it("lets a before hook patch or veto a write, and runs after hooks with the row", async () => {
    const after: string[] = [];
    const t = testInstance({
      databaseHooks: {
        user: {
          create: {
            before: (data) =>
              String(data.name) === "veto" ? false : { data: { name: String(data.name).toUpperCase() } },
            after: (row) => void after.push(String(row.name)),
          },
        },
      },
    });
    const vetoed = await t.post("/sign-up/email", { ...user, name: "veto" });
    expect(vetoed.status).toBe(400);
    expect((await vetoed.json()).code).toBe("FAILED_TO_CREATE_USER");
    expect(t.count("user")).toBe(0);
    await t.post("/sign-up/email", user);
    expect(t.store.user![0]!.name).toBe("ADA");
    expect(after).toEqual(["ADA"]);
  });

  it("lets an after hook set a cookie and replace the answer", async () => {
    const t = testInstance({
      hooks: {
        after: (ctx) => {
          if (ctx.path !== "/sign-in/email") return undefined;
          ctx.setCookie("seen", "1", { path: "/" });
          const returned = ctx.context.returned as { token?: string };
          return { ...returned, hooked: true };
        },
      },
    });
    await t.post("/sign-up/email", user);
    const res = await t.post("/sign-in/email", { email: user.email, password: user.password });
    expect((await res.json()).hooked).toBe(true);
    expect(findCookie(res, "seen")).toBe("seen=1; Path=/");
    expect(findCookie(res, "better-auth.session_token")).toBeDefined();
  });
});
