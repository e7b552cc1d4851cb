import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { captcha as referenceCaptcha } from "better-auth/plugins";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captcha } from "@latchkey/captcha";
import { statusAndBody } from "./support/capture.ts";
import { createPair, jsonPost, type Pair } from "./support/instances.ts";
import { countRows } from "./support/tables.ts";

/**
 * `@latchkey/captcha` beside the reference's `captcha()` on one database, both pointed at the
 * same local siteverify stub (`siteVerifyURLOverride`), which records what each one sends.
 */
interface Received {
  contentType: string;
  fields: Record<string, string>;
}
let server: Server;
let stubURL: string;
let received: Received[] = [];
let answer: { status: number; body: string } = { status: 200, body: '{"success":true}' };

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const contentType = req.headers["content-type"] ?? "";
      const fields = contentType.startsWith("application/json")
        ? (JSON.parse(raw) as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(raw));
      received.push({ contentType, fields });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stubURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  answer = { status: 200, body: '{"success":true}' };
});

type Options = Parameters<typeof captcha>[0];
async function pairWith(options: () => Options): Promise<Pair> {
  const o = options();
  return createPair({
    reference: { plugins: [referenceCaptcha(o as Parameters<typeof referenceCaptcha>[0])] },
    latchkey: { plugins: [captcha(o)] },
  });
}

const signUp = (n: string, headers: Record<string, string> = {}): Request =>
  jsonPost("/sign-up/email", { email: `cap-${n}@example.com`, password: "correct horse battery", name: n }, headers);

describe("captcha: the same answers from both (turnstile and reCAPTCHA against one stub)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith(() => ({ provider: "cloudflare-turnstile", secretKey: "shared-secret", siteVerifyURLOverride: stubURL }));
  });
  afterAll(() => pair.close());

  it("no token: 400 MISSING_RESPONSE from both, nothing written, the stub not asked", async () => {
    const before = countRows(pair.db);
    const ref = await statusAndBody(await pair.reference(signUp("none-r")));
    const lk = await statusAndBody(await pair.latchkey(signUp("none-l")));
    expect(ref).toEqual({ status: 400, body: { message: "Missing CAPTCHA response", code: "MISSING_RESPONSE" } });
    expect(lk).toEqual(ref);
    expect(countRows(pair.db)).toEqual(before);
    expect(received).toEqual([]);
  });

  it("a rejected token: 403 VERIFICATION_FAILED from both, nothing written", async () => {
    answer = { status: 200, body: '{"success":false,"error-codes":["invalid-input-response"]}' };
    const before = countRows(pair.db);
    const ref = await statusAndBody(await pair.reference(signUp("bad-r", { "x-captcha-response": "bad" })));
    const lk = await statusAndBody(await pair.latchkey(signUp("bad-l", { "x-captcha-response": "bad" })));
    expect(ref).toEqual({ status: 403, body: { message: "Captcha verification failed", code: "VERIFICATION_FAILED" } });
    expect(lk).toEqual(ref);
    expect(countRows(pair.db)).toEqual(before);
  });

  it("an accepted token: both sign up; the stub gets the same JSON fields (client address from x-forwarded-for)", async () => {
    const headers = { "x-captcha-response": "good", "x-forwarded-for": "203.0.113.9" };
    expect((await pair.reference(signUp("ok-r", headers))).status).toBe(200);
    expect((await pair.latchkey(signUp("ok-l", headers))).status).toBe(200);
    expect(received).toHaveLength(2);
    expect(received[1]).toEqual(received[0]);
    expect(received[0]).toEqual({
      contentType: "application/json",
      fields: { secret: "shared-secret", response: "good", remoteip: "203.0.113.9" },
    });
  });

  it("the provider down: 500 UNKNOWN_ERROR from both", async () => {
    answer = { status: 503, body: "unavailable" };
    const ref = await statusAndBody(await pair.reference(signUp("down-r", { "x-captcha-response": "t" })));
    const lk = await statusAndBody(await pair.latchkey(signUp("down-l", { "x-captcha-response": "t" })));
    expect(ref).toEqual({ status: 500, body: { message: "Something went wrong", code: "UNKNOWN_ERROR" } });
    expect(lk).toEqual(ref);
  });

  it("row 92: the refusal's content type — the reference sends text/plain, Latchkey application/json", async () => {
    const ref = await pair.reference(signUp("ct-r"));
    const lk = await pair.latchkey(signUp("ct-l"));
    expect(ref.headers.get("content-type")).toBe("text/plain;charset=UTF-8");
    expect(lk.headers.get("content-type")).toBe("application/json");
  });

  it("row 93: no x-forwarded-for — the reference sends remoteip 127.0.0.1 (its test/dev fallback), Latchkey none", async () => {
    await pair.reference(signUp("ip-r", { "x-captcha-response": "t" }));
    await pair.latchkey(signUp("ip-l", { "x-captcha-response": "t" }));
    expect(received.map((r) => r.fields)).toEqual([
      { secret: "shared-secret", response: "t", remoteip: "127.0.0.1" },
      { secret: "shared-secret", response: "t" },
    ]);
  });
});

describe("captcha: reCAPTCHA v3 score, action and hostname judged alike", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith(() => ({
      provider: "google-recaptcha",
      secretKey: "g-secret",
      siteVerifyURLOverride: stubURL,
      minScore: 0.6,
      expectedAction: "signup",
      allowedHostnames: ["app.example"],
    }));
  });
  afterAll(() => pair.close());

  const v3 = { success: true, score: 0.9, action: "signup", hostname: "app.example" };
  it.each([
    ["accepted", v3],
    ["low score", { ...v3, score: 0.3 }],
    ["v2 (no score)", { success: true, action: "signup", hostname: "app.example" }],
    ["wrong action", { ...v3, action: "login" }],
    ["wrong hostname", { ...v3, hostname: "evil.example" }],
  ])("%s", async (name, body) => {
    answer = { status: 200, body: JSON.stringify(body) };
    const slug = name.replace(/\W/g, "");
    const ref = await statusAndBody(await pair.reference(signUp(`g-${slug}-r`, { "x-captcha-response": "t" })));
    const lk = await statusAndBody(await pair.latchkey(signUp(`g-${slug}-l`, { "x-captcha-response": "t" })));
    expect(lk.status).toBe(ref.status);
    if (ref.status !== 200) expect(lk.body).toEqual(ref.body);
    expect(received.map((r) => r.contentType)).toEqual(["application/x-www-form-urlencoded", "application/x-www-form-urlencoded"]);
    expect(received[1]?.fields).toEqual({ secret: "g-secret", response: "t" });
  });
});

describe("captcha: endpoint rules", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith(() => ({
      provider: "hcaptcha",
      secretKey: "h",
      siteVerifyURLOverride: stubURL,
      endpoints: ["/sign-up", "/list/**", "/sign-in/*"],
    }));
  });
  afterAll(() => pair.close());

  it("a rule `/sign-up` covers /sign-up/email on neither; `/sign-in/*` covers /sign-in/email on both", async () => {
    expect((await pair.reference(signUp("rule-r"))).status).toBe(200);
    expect((await pair.latchkey(signUp("rule-l"))).status).toBe(200);
    const signIn = () => jsonPost("/sign-in/email", { email: "cap-rule-r@example.com", password: "correct horse battery" });
    expect((await pair.reference(signIn())).status).toBe(400);
    expect((await pair.latchkey(signIn())).status).toBe(400);
  });

  it("row 94: `/list/**` — the reference also guards /list-sessions (a segment that only starts with `list`), Latchkey not", async () => {
    const get = () => new Request("http://localhost:3000/api/auth/list-sessions");
    const ref = await statusAndBody(await pair.reference(get()));
    const lk = await statusAndBody(await pair.latchkey(get()));
    expect(ref).toEqual({ status: 400, body: { message: "Missing CAPTCHA response", code: "MISSING_RESPONSE" } });
    expect(lk.status).toBe(401);
  });
});

describe.each(["hcaptcha", "captchafox"] as const)("captcha: %s sends the same form from both", (provider) => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith(() => ({ provider, secretKey: `${provider}-secret`, siteKey: "site-key", siteVerifyURLOverride: stubURL }));
  });
  afterAll(() => pair.close());

  it("secret, response, sitekey and the client address (remoteip / remoteIp)", async () => {
    const headers = { "x-captcha-response": "tok", "x-forwarded-for": "198.51.100.20" };
    expect((await pair.reference(signUp(`${provider}-r`, headers))).status).toBe(200);
    expect((await pair.latchkey(signUp(`${provider}-l`, headers))).status).toBe(200);
    expect(received).toHaveLength(2);
    expect(received[1]).toEqual(received[0]);
    const ipField = provider === "captchafox" ? "remoteIp" : "remoteip";
    expect(received[0]?.fields).toEqual({ secret: `${provider}-secret`, response: "tok", sitekey: "site-key", [ipField]: "198.51.100.20" });
  });
});
