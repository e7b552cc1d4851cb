import { describe, expect, it } from "vitest";
import { createAuth, memoryAdapter, type LatchkeyOptions } from "../../src/index.ts";
import { cookiePair, findCookie, SECRET, testInstance } from "../support/instance.ts";

// vitest runs with NODE_ENV=test, where origin checks default to off (as in the reference):
// every instance here turns them on explicitly.
const checksOn = {
  advanced: { disableOriginCheck: false, disableCSRFCheck: false },
} satisfies Partial<LatchkeyOptions>;
const user = { name: "Ada", email: "ada@example.com", password: "password-1234" };

async function withSession(options: Partial<LatchkeyOptions> = {}) {
  const t = testInstance({ ...checksOn, ...options });
  const res = await t.post("/sign-up/email", user);
  return { ...t, cookie: cookiePair(findCookie(res, "better-auth.session_token")!) };
}

describe("origin check on credentialed state-changing requests", () => {
  it("refuses an attacker origin, a look-alike host and a missing origin", async () => {
    const t = await withSession();
    for (const origin of [
      "http://evil.example",
      "http://localhost:3000.evil.example",
      "http://localhost:3001",
      "https://localhost:3000",
    ]) {
      const res = await t.post("/sign-out", {}, { cookie: t.cookie, origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    }
    const none = await t.post("/sign-out", {}, { cookie: t.cookie });
    expect(await none.json()).toEqual({ code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" });
    const nul = await t.post("/sign-out", {}, { cookie: t.cookie, origin: "null" });
    expect((await nul.json()).code).toBe("MISSING_OR_NULL_ORIGIN");
    expect(t.count("session")).toBe(1);
    const ok = await t.post("/sign-out", {}, { cookie: t.cookie, origin: "http://localhost:3000" });
    expect(ok.status).toBe(200);
    expect(t.count("session")).toBe(0);
  });

  it("accepts the Referer when Origin is absent, and a same-origin form posted with Origin: null", async () => {
    const t = await withSession();
    expect(
      (await t.post("/sign-out", {}, { cookie: t.cookie, referer: "http://localhost:3000/settings" })).status,
    ).toBe(200);
    const t2 = await withSession();
    const form = await t2.post(
      "/sign-out",
      {},
      { cookie: t2.cookie, origin: "null", "sec-fetch-site": "same-origin" },
    );
    expect(form.status).toBe(200);
  });

  it("matches wildcard and function trusted origins exactly", async () => {
    const t = await withSession({ trustedOrigins: ["https://*.example.com"] });
    expect(
      (await t.post("/update-user", { name: "A" }, { cookie: t.cookie, origin: "https://app.example.com" }))
        .status,
    ).toBe(200);
    for (const origin of [
      "https://example.com.evil.io",
      "https://evilexample.com",
      "http://app.example.com.evil.io",
    ]) {
      expect((await t.post("/update-user", { name: "A" }, { cookie: t.cookie, origin })).status, origin).toBe(
        403,
      );
    }
    const f = await withSession({
      trustedOrigins: (request) => (request?.headers.get("x-tenant") === "a" ? ["https://a.example"] : []),
    });
    expect(
      (
        await f.post(
          "/update-user",
          { name: "A" },
          { cookie: f.cookie, origin: "https://a.example", "x-tenant": "a" },
        )
      ).status,
    ).toBe(200);
    expect(
      (await f.post("/update-user", { name: "A" }, { cookie: f.cookie, origin: "https://a.example" })).status,
    ).toBe(403);
  });

  it("blocks a cross-site navigation to the login form and checks Fetch-Metadata requests", async () => {
    const t = testInstance(checksOn);
    await t.post("/sign-up/email", user);
    const body = { email: user.email, password: user.password };
    const nav = await t.post("/sign-in/email", body, {
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
    });
    expect(nav.status).toBe(403);
    expect((await nav.json()).code).toBe("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED");
    const cors = await t.post("/sign-in/email", body, {
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "cors",
      origin: "http://evil.example",
    });
    expect((await cors.json()).code).toBe("INVALID_ORIGIN");
    expect((await t.post("/sign-in/email", body)).status).toBe(200); // a bare API client
  });
});

describe("redirect targets", () => {
  const bad: Array<[string, string]> = [
    ["an attacker origin", "http://evil.example/phish"],
    ["a look-alike host", "http://localhost:3000.evil.example/"],
    ["a protocol-relative URL", "//evil.example/x"],
    ["a backslash path", "/\\evil.example"],
    ["an encoded slash", "/%2F%2Fevil.example"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a data: URL", "data:text/html,<script>alert(1)</script>"],
    ["a control character", "/ok\u0000"],
    // The URL parser drops CR/LF/tab before the origin is compared; a Location header cannot carry them.
    ["CR/LF in a trusted absolute URL", "http://localhost:3000/ok\r\nSet-Cookie: a=b"],
    ["a tab in a trusted absolute URL", "http://localhost:3000/o\tk"],
  ];
  for (const [what, callbackURL] of bad) {
    it(`refuses ${what} as callbackURL`, async () => {
      const t = testInstance(checksOn);
      await t.post("/sign-up/email", user);
      const res = await t.post("/sign-in/email", { email: user.email, password: user.password, callbackURL });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
      expect(t.count("session")).toBe(1);
    });
  }

  it("accepts a relative path and a trusted absolute URL, and types the field", async () => {
    const t = testInstance(checksOn);
    await t.post("/sign-up/email", user);
    for (const callbackURL of ["/dashboard?tab=1", "http://localhost:3000/welcome"]) {
      const res = await t.post("/sign-in/email", { email: user.email, password: user.password, callbackURL });
      expect(res.headers.get("location")).toBe(callbackURL);
    }
    const typed = await t.post("/sign-in/email", {
      email: user.email,
      password: user.password,
      callbackURL: 5,
    });
    expect(typed.status).toBe(400);
    expect(await typed.json()).toEqual({ message: "Invalid callbackURL: expected a string" });
  });
});

describe("base URL and proxy headers", () => {
  const make = (options: Partial<LatchkeyOptions>) =>
    createAuth({
      database: memoryAdapter(),
      secret: SECRET,
      emailAndPassword: { enabled: true },
      ...checksOn,
      ...options,
    });
  const signIn = (
    auth: ReturnType<typeof make>,
    url: string,
    headers: Record<string, string>,
    callbackURL: string,
  ) =>
    auth.handler(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ ...user, callbackURL }),
      }),
    );

  it("ignores X-Forwarded-Host/Proto unless trustedProxyHeaders", async () => {
    const spoof = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    const plain = make({});
    await plain.api.signUpEmail!({ body: user });
    const refused = await signIn(
      plain,
      "http://localhost:3000/api/auth/sign-in/email",
      spoof,
      "https://evil.example/x",
    );
    expect(refused.status).toBe(403);
    const trusting = make({ advanced: { ...checksOn.advanced, trustedProxyHeaders: true } });
    await trusting.api.signUpEmail!({ body: user });
    const accepted = await signIn(
      trusting,
      "http://localhost:3000/api/auth/sign-in/email",
      spoof,
      "https://evil.example/x",
    );
    expect(accepted.status).toBe(200);
  });

  it("serves allowed hosts of a dynamic base URL, falls back or refuses the rest", async () => {
    const auth = make({
      baseURL: { allowedHosts: ["app.example.com", "*.preview.example.com"], protocol: "https" },
    });
    const ok = (host: string) =>
      auth.handler(new Request(`https://${host}/api/auth/ok`, { headers: { host } }));
    expect((await ok("app.example.com")).status).toBe(200);
    expect((await ok("pr-1.preview.example.com")).status).toBe(200);
    const refused = await ok("evil.example");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ code: "HOST_NOT_ALLOWED", message: "Host is not allowed" });
    const signUp = await auth.handler(
      new Request("https://app.example.com/api/auth/sign-up/email", {
        method: "POST",
        headers: { host: "app.example.com", "content-type": "application/json" },
        body: JSON.stringify(user),
      }),
    );
    expect(findCookie(signUp, "__Secure-better-auth.session_token")).toContain("Secure");
    const withFallback = make({
      baseURL: { allowedHosts: ["app.example.com"], fallback: "https://app.example.com" },
    });
    expect(
      (
        await withFallback.handler(
          new Request("https://other.example/api/auth/ok", { headers: { host: "other.example" } }),
        )
      ).status,
    ).toBe(200);
  });

  it("names cookies by configuration, never by the scheme a request claims", async () => {
    const auth = make({});
    const res = await auth.handler(
      new Request("https://localhost:3000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(user),
      }),
    );
    // No static base URL and not production: plain names, as the reference.
    expect(findCookie(res, "better-auth.session_token")).toBeDefined();
  });
});
