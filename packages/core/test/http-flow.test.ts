import { describe, expect, it } from "vitest";
import { signCookieValue } from "../src/index.ts";
import { cookiePair, findCookie, SECRET, testInstance } from "./support/instance.ts";

const user = { name: "Ada", email: "Ada@Example.com", password: "correct horse battery" };

describe("email and password sessions over HTTP", () => {
  it("signs up, stores a credential account and sets the session cookie", async () => {
    const t = testInstance();
    const res = await t.post("/sign-up/email", user);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({
      name: "Ada",
      email: "ada@example.com",
      emailVerified: false,
      image: null,
    });
    expect(body.user.id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.user).not.toHaveProperty("password");
    const cookie = findCookie(res, "better-auth.session_token")!;
    expect(cookie).toMatch(/; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
    const signed = decodeURIComponent(cookiePair(cookie).split("=")[1]!);
    expect(signed).toBe(await signCookieValue(body.token, SECRET));
    const account = t.store.account![0]!;
    expect(account).toMatchObject({ providerId: "credential", accountId: body.user.id });
    expect(String(account.password)).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
  });

  it("signs in, reads the session by cookie and by Bearer, and signs out", async () => {
    const t = testInstance();
    await t.post("/sign-up/email", user);
    const signIn = await t.post("/sign-in/email", { email: user.email, password: user.password });
    expect(signIn.status).toBe(200);
    const { token, redirect } = await signIn.json();
    expect(redirect).toBe(false);
    const cookie = cookiePair(findCookie(signIn, "better-auth.session_token")!);

    const byCookie = await t.request("/get-session", { headers: { cookie } });
    expect(byCookie.headers.get("cache-control")).toBe("no-store");
    const session = await byCookie.json();
    expect(session.session.token).toBe(token);
    expect(session.user.email).toBe("ada@example.com");

    // Without the bearer() plugin a bare token is no credential: only the signed form is.
    const byBareToken = await (
      await t.request("/get-session", { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(byBareToken).toBeNull();
    const signedBearer = await signCookieValue(token, SECRET);
    const bySigned = await (
      await t.request("/get-session", { headers: { authorization: `Bearer ${signedBearer}` } })
    ).json();
    expect(bySigned.session.id).toBe(session.session.id);
    const forged = await (
      await t.request("/get-session", { headers: { authorization: `Bearer ${token}.${"A".repeat(43)}=` } })
    ).json();
    expect(forged).toBeNull();

    const out = await t.post("/sign-out", {}, { cookie });
    expect(await out.json()).toEqual({ success: true });
    const expired = out.headers.getSetCookie();
    expect(expired).toContain("better-auth.session_token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
    expect(expired).toContain("better-auth.session_data=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
    expect(await (await t.request("/get-session", { headers: { cookie } })).json()).toBeNull();
    expect(t.count("session")).toBe(1); // the sign-up session remains; the signed-in one is gone
  });

  it("answers sign-out without a session with success", async () => {
    const t = testInstance();
    const res = await t.post("/sign-out", {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
  });

  it("refuses a wrong password and an unknown email alike", async () => {
    const t = testInstance();
    await t.post("/sign-up/email", user);
    for (const body of [
      { email: user.email, password: "wrong password!" },
      { email: "nobody@example.com", password: user.password },
    ]) {
      const res = await t.post("/sign-in/email", body);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: "INVALID_EMAIL_OR_PASSWORD",
        message: "Invalid email or password",
      });
    }
  });

  it("refuses a duplicate email with 422", async () => {
    const t = testInstance();
    await t.post("/sign-up/email", user);
    const res = await t.post("/sign-up/email", { ...user, email: "ADA@example.com" });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      message: "User already exists. Use another email.",
    });
    expect(t.count("user")).toBe(1);
  });

  it("keeps a not-remembered session to a browser session and one day", async () => {
    const t = testInstance();
    await t.post("/sign-up/email", user);
    const res = await t.post("/sign-in/email", {
      email: user.email,
      password: user.password,
      rememberMe: false,
    });
    const session = findCookie(res, "better-auth.session_token")!;
    expect(session).not.toContain("Max-Age");
    expect(findCookie(res, "better-auth.dont_remember")).toMatch(
      /^better-auth\.dont_remember=true\.[^;]+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const row = t.store.session!.at(-1)!;
    const lifetime = (row.expiresAt as Date).getTime() - (row.createdAt as Date).getTime();
    expect(Math.round(lifetime / 1000)).toBe(86_400);
  });

  it("sets Location and redirect: true for a callbackURL", async () => {
    const t = testInstance();
    await t.post("/sign-up/email", user);
    const res = await t.post("/sign-in/email", {
      email: user.email,
      password: user.password,
      callbackURL: "/dashboard",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect(await res.json()).toMatchObject({ redirect: true, url: "/dashboard" });
  });

  it("refreshes the expiry once updateAge has passed", async () => {
    const t = testInstance({ session: { expiresIn: 1000, updateAge: 0 } });
    const signUp = await t.post("/sign-up/email", user);
    const cookie = cookiePair(findCookie(signUp, "better-auth.session_token")!);
    const before = (t.store.session![0]!.expiresAt as Date).getTime();
    await new Promise((r) => setTimeout(r, 20));
    const res = await t.request("/get-session", { headers: { cookie } });
    expect(findCookie(res, "better-auth.session_token")).toContain("Max-Age=1000");
    expect((t.store.session![0]!.expiresAt as Date).getTime()).toBeGreaterThan(before);
  });

  it("ends an expired session and clears its cookie", async () => {
    const t = testInstance();
    const signUp = await t.post("/sign-up/email", user);
    const cookie = cookiePair(findCookie(signUp, "better-auth.session_token")!);
    t.store.session![0]!.expiresAt = new Date(Date.now() - 1000);
    const res = await t.request("/get-session", { headers: { cookie } });
    expect(await res.json()).toBeNull();
    expect(findCookie(res, "better-auth.session_token")).toContain("Max-Age=0");
    expect(t.count("session")).toBe(0);
  });

  it("promotes cookies to __Secure- over HTTPS", async () => {
    const t = testInstance({ baseURL: "https://app.example.com" });
    const res = await t.auth.handler(
      new Request("https://app.example.com/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(user),
      }),
    );
    expect(findCookie(res, "__Secure-better-auth.session_token")).toMatch(
      /; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it("serves GET /ok, 404s unknown paths with an empty body, and serves the error page", async () => {
    const t = testInstance();
    expect(await (await t.request("/ok")).json()).toEqual({ ok: true });
    for (const path of ["/nope", "/ok/", "//ok"]) {
      const res = await t.request(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("");
    }
    expect((await t.request("/ok", { method: "DELETE" })).status).toBe(404);
    const page = await t.request("/error?error=<script>");
    expect(page.headers.get("content-type")).toBe("text/html");
    const html = await page.text();
    expect(html).toContain("UNKNOWN");
    expect(html).not.toContain("<script>");
  });
});
