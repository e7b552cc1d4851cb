import { describe, expect, it, vi } from "vitest";
import { ada, COOKIE, cookieAttributes, cookieValue, findCookie, lastLoginInstance } from "./instance.ts";

const sessionPair = (response: Response): string =>
  findCookie(response, "better-auth.session_token")!.split(";")[0]!;

describe("last-login-method cookie: which responses write it", () => {
  it("email sign-up writes 'email' with the session cookie's attributes, script-readable, 30 days", async () => {
    const { post } = lastLoginInstance();
    const response = await post("/sign-up/email", ada);
    expect(response.status).toBe(200);
    expect(cookieValue(response, COOKIE)).toBe("email");
    const ours = cookieAttributes(findCookie(response, COOKIE)!);
    const session = cookieAttributes(findCookie(response, "better-auth.session_token")!);
    expect(ours["max-age"]).toBe("2592000");
    expect(ours).not.toHaveProperty("httponly");
    expect(session).toHaveProperty("httponly");
    expect(ours.path).toBe(session.path);
    expect(ours.samesite).toBe(session.samesite);
  });

  it("email sign-in writes 'email'", async () => {
    const { post } = lastLoginInstance();
    await post("/sign-up/email", ada);
    const response = await post("/sign-in/email", { email: ada.email, password: ada.password });
    expect(response.status).toBe(200);
    expect(cookieValue(response, COOKIE)).toBe("email");
  });

  it("email OTP sign-in writes 'email-otp' (spec)", async () => {
    const { post } = lastLoginInstance();
    const response = await post("/sign-in/email-otp", { email: "otp@example.com", otp: "123456" });
    expect(response.status).toBe(200);
    expect(cookieValue(response, COOKIE)).toBe("email-otp");
  });

  it("a failed sign-in writes nothing", async () => {
    const { post } = lastLoginInstance();
    await post("/sign-up/email", ada);
    const response = await post("/sign-in/email", { email: ada.email, password: "wrong password!!" });
    expect(response.status).toBe(401);
    expect(findCookie(response, COOKIE)).toBeUndefined();
  });

  it("responses that start no session write nothing (get-session, sign-out, update-user)", async () => {
    const { post, request } = lastLoginInstance();
    const cookie = sessionPair(await post("/sign-up/email", ada));
    const session = await request("/get-session", { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(findCookie(session, COOKIE)).toBeUndefined();
    const update = await post("/update-user", { name: "Ada L" }, { cookie });
    expect(update.status).toBe(200);
    expect(findCookie(update, COOKIE)).toBeUndefined();
    const signOut = await post("/sign-out", {}, { cookie });
    expect(signOut.status).toBe(200);
    expect(findCookie(signOut, COOKIE)).toBeUndefined();
  });

  it("a sign-up that requires email verification starts no session and writes nothing", async () => {
    const { post } = lastLoginInstance(
      {},
      { emailAndPassword: { enabled: true, requireEmailVerification: true } },
    );
    const response = await post("/sign-up/email", ada);
    expect(response.status).toBe(200);
    expect(findCookie(response, "better-auth.session_token")).toBeUndefined();
    expect(findCookie(response, COOKIE)).toBeUndefined();
  });
});

describe("last-login-method cookie: name and attributes", () => {
  it("keeps the literal name on https (no __Secure- prefix) but takes Secure from the session cookie", async () => {
    const { post } = lastLoginInstance({}, { baseURL: "https://auth.example.com" });
    const response = await post("/sign-up/email", ada);
    expect(findCookie(response, "__Secure-better-auth.session_token")).toBeDefined();
    const line = findCookie(response, COOKIE);
    expect(line).toBeDefined();
    expect(cookieAttributes(line!)).toHaveProperty("secure");
  });

  it("ignores cookiePrefix", async () => {
    const { post } = lastLoginInstance({}, { advanced: { cookiePrefix: "myapp" } });
    const response = await post("/sign-up/email", ada);
    expect(findCookie(response, "myapp.session_token")).toBeDefined();
    expect(cookieValue(response, COOKIE)).toBe("email");
  });

  it("copies the session cookie's domain for cross-subdomain cookies", async () => {
    const { post } = lastLoginInstance(
      {},
      { advanced: { crossSubDomainCookies: { enabled: true, domain: "example.com" } } },
    );
    const response = await post("/sign-up/email", ada);
    expect(cookieAttributes(findCookie(response, COOKIE)!).domain).toBe("example.com");
  });

  it("uses cookieName and maxAge", async () => {
    const { post } = lastLoginInstance({ cookieName: "last_method", maxAge: 600 });
    const response = await post("/sign-up/email", ada);
    expect(findCookie(response, COOKIE)).toBeUndefined();
    expect(cookieValue(response, "last_method")).toBe("email");
    expect(cookieAttributes(findCookie(response, "last_method")!)["max-age"]).toBe("600");
  });

  it("refuses a cookie name no browser would store, and a negative maxAge, at start-up", async () => {
    const { lastLoginMethod } = await import("../src/index.ts");
    expect(() => lastLoginMethod({ cookieName: "bad name;" })).toThrow(TypeError);
    expect(() => lastLoginMethod({ maxAge: -1 })).toThrow(TypeError);
  });
});

describe("last-login-method cookie: customResolveMethod and beforeStoreCookie", () => {
  it("customResolveMethod names the method; null falls back to the built-in rules", async () => {
    const { post } = lastLoginInstance({
      customResolveMethod: (ctx) => (ctx.path === "/sign-up/email" ? "password-signup" : null),
    });
    expect(cookieValue(await post("/sign-up/email", ada), COOKIE)).toBe("password-signup");
    expect(
      cookieValue(await post("/sign-in/email", { email: ada.email, password: ada.password }), COOKIE),
    ).toBe("email");
  });

  it("beforeStoreCookie sees the method and can refuse the cookie without failing the sign-in", async () => {
    const seen: string[] = [];
    const { post } = lastLoginInstance({
      beforeStoreCookie: (_ctx, method) => {
        seen.push(method);
        return false;
      },
    });
    const response = await post("/sign-up/email", ada);
    expect(response.status).toBe(200);
    expect(findCookie(response, "better-auth.session_token")).toBeDefined();
    expect(findCookie(response, COOKIE)).toBeUndefined();
    expect(seen).toEqual(["email"]);
  });

  it("an async beforeStoreCookie answering true lets the cookie through", async () => {
    const { post } = lastLoginInstance({ beforeStoreCookie: async () => true });
    expect(cookieValue(await post("/sign-up/email", ada), COOKIE)).toBe("email");
  });

  it("a throwing beforeStoreCookie counts as a refusal and is logged", async () => {
    const sink = vi.fn();
    const { post } = lastLoginInstance(
      {
        beforeStoreCookie: () => {
          throw new Error("consent store down");
        },
      },
      { logger: { level: "error", log: sink } },
    );
    const response = await post("/sign-up/email", ada);
    expect(response.status).toBe(200);
    expect(findCookie(response, COOKIE)).toBeUndefined();
    expect(sink).toHaveBeenCalled();
  });
});
