import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, testAuth, TEST_BASE_URL, type TestAuth } from "../src/index.ts";

const ada = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };
const SESSION = "better-auth.session_token";

describe("client: cookies across calls (SQLite)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await testAuth({ emailAndPassword: { enabled: true } }, { db: "sqlite" });
  });
  afterAll(() => t.close());

  it("keeps the session cookie from sign-up, sends it back, and drops it on sign-out (Max-Age=0)", async () => {
    const c = client(t.auth);
    expect(c.base).toBe(`${TEST_BASE_URL}/api/auth`);
    const signUp = await c.post<{ user: { email: string } }>("/sign-up/email", ada);
    expect(signUp.status).toBe(200);
    expect(signUp.json?.user.email).toBe(ada.email);
    expect(c.jar.values.has(SESSION)).toBe(true);
    // The Response stays readable beside the parsed body.
    expect(((await signUp.response.json()) as { user: { email: string } }).user.email).toBe(ada.email);

    const session = await c.get<{ user: { email: string } } | null>("/get-session");
    expect(session.json?.user.email).toBe(ada.email);

    const out = await c.post("/sign-out", {});
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().some((line) => line.startsWith(`${SESSION}=;`))).toBe(true);
    expect(c.jar.values.has(SESSION)).toBe(false);
    expect((await c.get(`${TEST_BASE_URL}/api/auth/get-session`)).json).toBeNull();
  });

  it("sends a raw string body as is, and no body at all when none is given", async () => {
    const c = client(t.auth);
    const malformed = await c.post<{ code: string }>("/sign-in/email", "{nope");
    expect(malformed.status).toBe(400);
    expect(malformed.json?.code).toBeTypeOf("string");
    const plain = await c.post<{ code: string }>("/sign-in/email", "{}", {
      headers: { "content-type": "text/plain" },
    });
    expect({ status: plain.status, code: plain.json?.code }).toEqual({
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
    const none = await c.post("/sign-in/email");
    expect(none.status).toBeGreaterThanOrEqual(400);
    expect(none.status).toBeLessThan(500);
  });
});

describe("client: Origin when asked (origin checks on)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await testAuth(
      { emailAndPassword: { enabled: true }, advanced: { disableOriginCheck: false } },
      { db: "sqlite" },
    );
  });
  afterAll(() => t.close());

  it("a credentialed POST without Origin is refused; with origin: true it passes", async () => {
    const signedIn = client(t.auth, { origin: true });
    expect((await signedIn.post("/sign-up/email", ada)).status).toBe(200);
    const cookie = signedIn.jar.header()!;

    const bare = client(t.auth, { headers: { cookie } });
    const refused = await bare.post<{ code: string }>("/sign-out", {});
    expect({ status: refused.status, code: refused.json?.code }).toEqual({
      status: 403,
      code: "MISSING_OR_NULL_ORIGIN",
    });
    const foreign = await bare.post("/sign-out", {}, { headers: { origin: "https://evil.test" } });
    expect(foreign.status).toBe(403);
    expect((await signedIn.post("/sign-out", {})).status).toBe(200);
  });
});
