import { createAuth, signCookieValue } from "@latchkey/core";
import { describe, expect, it } from "vitest";
import { bearer } from "../src/index.ts";
import { BASE, bearerInstance, cookieValue, SECRET, user } from "./instance.ts";

const SESSION_COOKIE = "better-auth.session_token";

describe("set-auth-token on responses that set the session cookie", () => {
  it("sign-up: the signed session token, exposed to cross-origin scripts", async () => {
    const t = bearerInstance();
    const res = await t.post("/sign-up/email", user);
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const header = res.headers.get("set-auth-token");
    // The reference sends the session cookie's value, percent-decoded: `<token>.<signature>`.
    expect(header).toBe(await signCookieValue(token, SECRET));
    expect(header).toBe(cookieValue(res, SESSION_COOKIE));
    expect(res.headers.get("access-control-expose-headers")).toBe("set-auth-token");
  });

  it("sign-in: the header authenticates /get-session as a Bearer token, with no cookie", async () => {
    const t = bearerInstance();
    await t.post("/sign-up/email", user);
    const res = await t.post("/sign-in/email", { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const header = res.headers.get("set-auth-token")!;
    expect(header).toBe(await signCookieValue(token, SECRET));
    expect(res.headers.get("access-control-expose-headers")).toBe("set-auth-token");

    const session = await t.request("/get-session", { headers: { authorization: `Bearer ${header}` } });
    expect(session.status).toBe(200);
    const body = (await session.json()) as { session: { token: string }; user: { email: string } };
    expect(body.session.token).toBe(token);
    expect(body.user.email).toBe(user.email);
    // A session that needs no refresh sets no cookie, so it gets no new token either.
    expect(session.headers.get("set-auth-token")).toBeNull();
    expect(session.headers.get("access-control-expose-headers")).toBeNull();
  });

  it("a session refresh re-sends the token with the refreshed cookie", async () => {
    const t = bearerInstance({ session: { updateAge: 0 } });
    const signUp = await t.post("/sign-up/email", user);
    const header = signUp.headers.get("set-auth-token")!;
    const refreshed = await t.request("/get-session", { headers: { authorization: `Bearer ${header}` } });
    expect(refreshed.status).toBe(200);
    expect(cookieValue(refreshed, SESSION_COOKIE)).toBe(header);
    expect(refreshed.headers.get("set-auth-token")).toBe(header);
  });

  it("a browser-session sign-in (rememberMe: false) still gets the header", async () => {
    const t = bearerInstance();
    await t.post("/sign-up/email", user);
    const res = await t.post("/sign-in/email", {
      email: user.email,
      password: user.password,
      rememberMe: false,
    });
    expect(res.headers.get("set-auth-token")).toBe(cookieValue(res, SESSION_COOKIE));
    expect(res.headers.get("set-auth-token")).toMatch(/^[A-Za-z0-9]{32}\./);
  });

  it("follows the cookie name: __Secure- prefix over HTTPS, custom prefix", async () => {
    const secure = bearerInstance({ baseURL: "https://auth.example.com" });
    const res = await secure.post("/sign-up/email", user);
    expect(res.headers.get("set-auth-token")).toBe(cookieValue(res, `__Secure-${SESSION_COOKIE}`));
    expect(res.headers.get("set-auth-token")).not.toBeNull();

    const custom = bearerInstance({ advanced: { cookiePrefix: "acme" } });
    const other = await custom.post("/sign-up/email", user);
    expect(other.headers.get("set-auth-token")).toBe(cookieValue(other, "acme.session_token"));
    expect(other.headers.get("set-auth-token")).not.toBeNull();
  });

  it("keeps headers another hook already exposes", async () => {
    const t = bearerInstance({
      hooks: {
        after: (ctx) => {
          ctx.setHeader("access-control-expose-headers", "x-request-id, Set-Auth-Token");
        },
      },
    });
    const res = await t.post("/sign-up/email", user);
    expect(res.headers.get("access-control-expose-headers")).toBe("x-request-id, Set-Auth-Token");
    const plain = bearerInstance({
      hooks: { after: (ctx) => ctx.setHeader("access-control-expose-headers", "x-request-id") },
    });
    const again = await plain.post("/sign-up/email", user);
    expect(again.headers.get("access-control-expose-headers")).toBe("x-request-id, set-auth-token");
  });

  it("auth.api with returnHeaders gets the header too (hooks run there as well)", async () => {
    const t = bearerInstance();
    const out = (await t.auth.api.signUpEmail!({ body: user, returnHeaders: true })) as {
      headers: Headers;
      response: { token: string };
    };
    expect(out.headers.get("set-auth-token")).toBe(await signCookieValue(out.response.token, SECRET));
  });
});

describe("no set-auth-token where no session cookie is set", () => {
  it("failed sign-in, sign-out, get-session without a session, /ok", async () => {
    const t = bearerInstance();
    const signUp = await t.post("/sign-up/email", user);
    const header = signUp.headers.get("set-auth-token")!;
    const responses = [
      await t.post("/sign-in/email", { email: user.email, password: "not-the-password" }),
      await t.post("/sign-up/email", user), // duplicate: 422
      await t.request("/get-session"),
      await t.request("/ok"),
      // Sign-out expires the cookie (Max-Age=0): that is no token to hand out.
      await t.post("/sign-out", {}, { authorization: `Bearer ${header}` }),
    ];
    expect(responses.map((r) => r.status)).toEqual([401, 422, 200, 200, 200]);
    for (const res of responses) {
      expect(res.headers.get("set-auth-token")).toBeNull();
      expect(res.headers.get("access-control-expose-headers")).toBeNull();
    }
  });
});

describe("bearer() options", () => {
  it("has the reference's id and keeps its options", () => {
    expect(bearer()).toMatchObject({ id: "bearer", options: { requireSignature: false } });
    expect(bearer({ requireSignature: false }).options).toEqual({ requireSignature: false });
  });

  it("by default a bare session token authenticates too (reference behaviour); without the plugin it does not", async () => {
    const t = bearerInstance();
    const signUp = await t.post("/sign-up/email", { name: "B", email: "bare@example.com", password: "password-1234" });
    const { token } = await signUp.json();
    const read = async (auth: { handler: (r: Request) => Promise<Response> }) =>
      (
        await auth.handler(
          new Request(`${BASE}/api/auth/get-session`, { headers: { authorization: `Bearer ${token}` } }),
        )
      ).json();
    expect((await read(t.auth)).session.token).toBe(token);
    const withoutPlugin = createAuth({ ...t.auth.options, plugins: [] });
    expect(await read(withoutPlugin)).toBeNull();
  });

  it("with requireSignature: true, only the signed token authenticates", async () => {
    const t = bearerInstance({}, { requireSignature: true });
    const signUp = await t.post("/sign-up/email", { name: "S", email: "signed@example.com", password: "password-1234" });
    const { token } = await signUp.json();
    const header = signUp.headers.get("set-auth-token")!;
    const read = async (value: string) =>
      (await t.request("/get-session", { headers: { authorization: `Bearer ${value}` } })).json();
    expect(await read(token)).toBeNull();
    expect((await read(header)).session.token).toBe(token);
  });
});
