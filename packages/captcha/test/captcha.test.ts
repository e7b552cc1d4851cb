import { client, rowCounts, testAuth, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captcha, type CaptchaOptions } from "../src/index.ts";
import { captchaInstance, signUpBody, type Outbox } from "./instance.ts";
import { startSiteVerify, type SiteVerifyStub } from "./stub.ts";

let stub: SiteVerifyStub;
beforeAll(async () => {
  stub = await startSiteVerify();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.received.length = 0;
  stub.answer = () => ({ body: { success: true } });
});

const SECRET = "0x-test-secret";
const missing = { message: "Missing CAPTCHA response", code: "MISSING_RESPONSE" };
const failed = { message: "Captcha verification failed", code: "VERIFICATION_FAILED" };
const unknown = { message: "Something went wrong", code: "UNKNOWN_ERROR" };

/** One instance per provider option set, closed after its block. */
function withInstance(options: () => CaptchaOptions): () => TestAuth & { outbox: Outbox } {
  let t: TestAuth & { outbox: Outbox };
  beforeAll(async () => {
    t = await captchaInstance(options());
  });
  afterAll(() => t.close());
  return () => t;
}

describe("cloudflare-turnstile", () => {
  const get = withInstance(() => ({ provider: "cloudflare-turnstile", secretKey: SECRET, siteVerifyURLOverride: stub.url }));

  it("a missing token: 400 MISSING_RESPONSE, nothing written, the provider not asked", async () => {
    const t = get();
    const before = await rowCounts(t.auth);
    const answer = await client(t.auth).post("/sign-up/email", signUpBody("missing"));
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual(missing);
    expect(answer.headers.getSetCookie()).toEqual([]);
    expect(await rowCounts(t.auth)).toEqual(before);
    expect(stub.received).toEqual([]);
  });

  it("a rejected token: 403 VERIFICATION_FAILED, nothing written", async () => {
    const t = get();
    stub.answer = () => ({ body: { success: false, "error-codes": ["invalid-input-response"] } });
    const before = await rowCounts(t.auth);
    const answer = await client(t.auth).post("/sign-up/email", signUpBody("rejected"), {
      headers: { "x-captcha-response": "bad-token" },
    });
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual(failed);
    expect(await rowCounts(t.auth)).toEqual(before);
  });

  it("sends JSON { secret, response } and no remoteip when the client address is unknown", async () => {
    const t = get();
    const answer = await client(t.auth).post("/sign-up/email", signUpBody("json"), {
      headers: { "x-captcha-response": "good-token" },
    });
    expect(answer.status).toBe(200);
    expect(stub.received).toEqual([
      { path: "/siteverify", contentType: "application/json", fields: { secret: SECRET, response: "good-token" } },
    ]);
  });

  it("sends remoteip when x-forwarded-for names the client", async () => {
    const t = get();
    await client(t.auth).post("/sign-in/email", { email: "nobody@example.com", password: "whatever-password" }, {
      headers: { "x-captcha-response": "tok", "x-forwarded-for": "203.0.113.7" },
    });
    expect(stub.received[0]?.fields).toEqual({ secret: SECRET, response: "tok", remoteip: "203.0.113.7" });
  });

  it("routes not in the rules are not checked", async () => {
    const t = get();
    const answer = await client(t.auth).get("/get-session");
    expect(answer.status).toBe(200);
    expect(stub.received).toEqual([]);
  });
});

describe("the check runs before the route: a refused request sends no mail", () => {
  const get = withInstance(() => ({ provider: "hcaptcha", secretKey: SECRET, siteVerifyURLOverride: stub.url }));

  it("request-password-reset: no token or a rejected one → no mail, no row; a good one → the mail", async () => {
    const t = get();
    const c = client(t.auth);
    await c.post("/sign-up/email", signUpBody("mail"), { headers: { "x-captcha-response": "ok" } });
    const before = await rowCounts(t.auth);
    const body = { email: "user-mail@example.com", redirectTo: "/reset" };
    expect((await c.post("/request-password-reset", body)).status).toBe(400);
    stub.answer = () => ({ body: { success: false } });
    expect((await c.post("/request-password-reset", body, { headers: { "x-captcha-response": "no" } })).status).toBe(403);
    expect(t.outbox).toEqual([]);
    expect(await rowCounts(t.auth)).toEqual(before);
    stub.answer = () => ({ body: { success: true } });
    expect((await c.post("/request-password-reset", body, { headers: { "x-captcha-response": "yes" } })).status).toBe(200);
    expect(t.outbox).toHaveLength(1);
  });
});

describe("google-recaptcha", () => {
  const get = withInstance(() => ({
    provider: "google-recaptcha",
    secretKey: SECRET,
    siteVerifyURLOverride: stub.url,
    minScore: 0.7,
    expectedAction: "signup",
    allowedHostnames: ["app.example.com"],
  }));
  const send = (n: string) =>
    client(get().auth).post("/sign-up/email", signUpBody(n), { headers: { "x-captcha-response": `tok-${n}` } });
  const v3 = { success: true, score: 0.9, action: "signup", hostname: "app.example.com" };

  it("sends a form { secret, response }", async () => {
    stub.answer = () => ({ body: v3 });
    expect((await send("form")).status).toBe(200);
    expect(stub.received[0]).toMatchObject({
      contentType: "application/x-www-form-urlencoded",
      fields: { secret: SECRET, response: "tok-form" },
    });
    expect(stub.received[0]?.fields).not.toHaveProperty("remoteip");
  });

  it.each([
    ["a v3 score below minScore", { ...v3, score: 0.5 }, 403],
    ["a v3 score at minScore", { ...v3, score: 0.7 }, 200],
    ["another action", { ...v3, action: "login" }, 403],
    ["no action", { success: true, score: 0.9, hostname: "app.example.com" }, 403],
    ["another hostname", { ...v3, hostname: "evil.example" }, 403],
    ["success not true", { ...v3, success: "true" }, 403],
  ])("%s → %i", async (_name, body, status) => {
    stub.answer = () => ({ body });
    const answer = await send(`case-${Math.random().toString(36).slice(2)}`);
    expect(answer.status).toBe(status);
    if (status === 403) expect(answer.json).toEqual(failed);
  });
});

describe("reCAPTCHA v2 (no score) with the default minScore", () => {
  const get = withInstance(() => ({ provider: "google-recaptcha", secretKey: SECRET, siteVerifyURLOverride: stub.url }));
  it("passes on success alone", async () => {
    stub.answer = () => ({ body: { success: true, hostname: "anything" } });
    const answer = await client(get().auth).post("/sign-up/email", signUpBody("v2"), { headers: { "x-captcha-response": "t" } });
    expect(answer.status).toBe(200);
  });
});

describe("hcaptcha and captchafox send the site key; captchafox spells remoteIp", () => {
  const h = withInstance(() => ({ provider: "hcaptcha", secretKey: SECRET, siteKey: "site-h", siteVerifyURLOverride: stub.url }));
  const f = withInstance(() => ({ provider: "captchafox", secretKey: SECRET, siteKey: "site-f", siteVerifyURLOverride: stub.url }));
  const headers = { "x-captcha-response": "t", "x-forwarded-for": "198.51.100.4" };

  it("hcaptcha", async () => {
    await client(h().auth).post("/sign-up/email", signUpBody("h"), { headers });
    expect(stub.received[0]?.fields).toEqual({ secret: SECRET, response: "t", sitekey: "site-h", remoteip: "198.51.100.4" });
  });
  it("captchafox", async () => {
    await client(f().auth).post("/sign-up/email", signUpBody("f"), { headers });
    expect(stub.received[0]?.fields).toEqual({ secret: SECRET, response: "t", sitekey: "site-f", remoteIp: "198.51.100.4" });
  });
});

describe("the provider cannot be asked: 500 UNKNOWN_ERROR, nothing written (fail closed)", () => {
  const get = withInstance(() => ({
    provider: "cloudflare-turnstile",
    secretKey: SECRET,
    siteVerifyURLOverride: stub.url,
    verifyTimeout: 300,
  }));
  it.each([
    ["a 500", { status: 500, body: { success: true } }],
    ["a 503 with no JSON", { status: 503, body: "down" }],
    ["a body that is not JSON", { body: "<html>" }],
    ["a JSON array", { body: [true] }],
    ["a redirect", { status: 302, headers: { location: "http://127.0.0.1:1/" }, body: "" }],
    ["an answer after the timeout", { delay: 1000, body: { success: true } }],
    ["a body over the size cap", { body: { success: true, pad: "x".repeat(100_000) } }],
  ])("%s", async (_name, answer) => {
    stub.answer = () => answer;
    const t = get();
    const before = await rowCounts(t.auth);
    const got = await client(t.auth).post("/sign-up/email", signUpBody(`down-${Math.random()}`), {
      headers: { "x-captcha-response": "t" },
    });
    expect(got.status).toBe(500);
    expect(got.json).toEqual(unknown);
    expect(await rowCounts(t.auth)).toEqual(before);
  });

  it("a siteverify URL nothing listens on", async () => {
    const t = await captchaInstance({
      provider: "hcaptcha",
      secretKey: SECRET,
      siteVerifyURLOverride: "http://127.0.0.1:1/siteverify",
    });
    const got = await client(t.auth).post("/sign-up/email", signUpBody("refused"), { headers: { "x-captcha-response": "t" } });
    expect(got.status).toBe(500);
    expect(got.json).toEqual(unknown);
    await t.close();
  });
});

describe("endpoint rules on real requests", () => {
  const get = withInstance(() => ({
    provider: "hcaptcha",
    secretKey: SECRET,
    siteVerifyURLOverride: stub.url,
    endpoints: ["/sign-up", "/sign-in/**"],
  }));

  it("`/sign-up` does not cover /sign-up/email; `/sign-in/**` covers /sign-in/email", async () => {
    const c = client(get().auth);
    expect((await c.post("/sign-up/email", signUpBody("rules"))).status).toBe(200);
    const signIn = await c.post("/sign-in/email", { email: "user-rules@example.com", password: "x-password" });
    expect(signIn.status).toBe(400);
    expect(signIn.json).toEqual(missing);
  });

  it("a trailing slash or doubled slashes do not get past a rule", async () => {
    const c = client(get().auth);
    for (const path of ["/sign-in/email/", "//sign-in/email", "/sign-in//email"]) {
      expect((await c.post(path, { email: "a@example.com", password: "x-password" })).status, path).toBe(400);
    }
  });
});

describe("vercel-botid", () => {
  let verdict: () => Promise<{ isBot: boolean }> = async () => ({ isBot: false });
  const get = withInstance(() => ({ provider: "vercel-botid", checkBotId: () => verdict(), verifyTimeout: 200 }));
  it("a human passes, a bot gets 403, a check that hangs or throws 500", async () => {
    const c = client(get().auth);
    expect((await c.post("/sign-up/email", signUpBody("human"))).status).toBe(200);
    verdict = async () => ({ isBot: true });
    expect((await c.post("/sign-up/email", signUpBody("bot"))).json).toEqual(failed);
    verdict = () => new Promise(() => {});
    expect((await c.post("/sign-up/email", signUpBody("hang"))).json).toEqual(unknown);
    verdict = () => Promise.reject(new Error("down"));
    expect((await c.post("/sign-up/email", signUpBody("throw"))).status).toBe(500);
  });
});

describe("misconfiguration is a TypeError when the plugin is made", () => {
  it.each([
    [{ provider: "hcaptcha", secretKey: "" }],
    [{ provider: "nope", secretKey: "x" }],
    [{ provider: "vercel-botid" }],
    [{ provider: "hcaptcha", secretKey: "x", verifyTimeout: 0 }],
  ])("%j", (options) => {
    expect(() => captcha(options as unknown as CaptchaOptions)).toThrow(TypeError);
  });
});

describe("a custom basePath", () => {
  it("rules are matched below it", async () => {
    const t = await testAuth(
      {
        basePath: "/auth",
        emailAndPassword: { enabled: true },
        plugins: [captcha({ provider: "hcaptcha", secretKey: SECRET, siteVerifyURLOverride: stub.url })],
      },
      { db: "sqlite" },
    );
    const c = client(t.auth);
    expect(c.base).toBe("http://localhost:3000/auth");
    expect((await c.post("/sign-up/email", signUpBody("base"))).json).toEqual(missing);
    expect((await c.post("/sign-up/email", signUpBody("base"), { headers: { "x-captcha-response": "t" } })).status).toBe(200);
    await t.close();
  });
});
