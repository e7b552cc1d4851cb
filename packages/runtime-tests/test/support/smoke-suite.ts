import { describe, expect, it } from "vitest";
import { LIMITED_MAX } from "../../src/smoke-auth.ts";
import { LIMITED_PATH } from "../../src/smoke-plugin.ts";
import { cookieFrom, SmokeClient, uniqueEmail } from "./client.ts";

const SESSION_COOKIE = "better-auth.session_token";
const PASSWORD = "correct horse battery staple";

interface SessionBody {
  session: { token: string; userId: string };
  user: { id: string; email: string };
}

/**
 * The scripted flow, over HTTP, against one instance: sign-up, sign-in, get-session by cookie
 * and by Bearer, a plugin route, the rate-limited route, sign-out. Steps share state and run
 * in order; `base` is read lazily because the server starts in `beforeAll`.
 */
export function smokeSuite(label: string, base: () => string, expectedRuntime: string): void {
  describe(label, () => {
    const email = uniqueEmail(label);
    let client: SmokeClient;
    let cookie = "";
    let bearer = "";
    let userId = "";

    it("answers the plugin's ping, from the expected runtime", async () => {
      client = new SmokeClient(base());
      const res = await client.get("/smoke/ping");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ pong: true, runtime: expectedRuntime });
    });

    it("signs up (200, session cookie, token)", async () => {
      const res = await client.post("/sign-up/email", { email, password: PASSWORD, name: "Smoke" });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        token: expect.any(String),
        user: { email, name: "Smoke", emailVerified: false },
      });
      expect(cookieFrom(res, SESSION_COOKIE)).toBeDefined();
      userId = (res.body as SessionBody).user.id;
    });

    it("signs in (401 on a wrong password, then 200 with cookie and set-auth-token)", async () => {
      const wrong = await client.post("/sign-in/email", { email, password: `${PASSWORD}!` });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: "INVALID_EMAIL_OR_PASSWORD" });

      const res = await client.post("/sign-in/email", { email, password: PASSWORD });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ redirect: false, user: { id: userId, email } });
      cookie = cookieFrom(res, SESSION_COOKIE) ?? "";
      bearer = res.headers.get("set-auth-token") ?? "";
      expect(cookie).toMatch(/^better-auth\.session_token=.+/);
      expect(bearer).toMatch(/^[A-Za-z0-9]{32}\./);
    });

    it("gets the session by cookie", async () => {
      const res = await client.get("/get-session", { cookie });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user: { id: userId, email }, session: { userId } });
    });

    it("gets the session by Bearer token, no cookie", async () => {
      const res = await client.get("/get-session", { authorization: `Bearer ${bearer}` });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user: { id: userId, email }, session: { userId } });
      expect((res.body as SessionBody).session.token).toBe(bearer.split(".")[0]);
    });

    it("serves a session-protected plugin route (401 without, 200 with Bearer)", async () => {
      expect((await client.get("/smoke/me")).status).toBe(401);
      const res = await client.get("/smoke/me", { authorization: `Bearer ${bearer}` });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ email });
    });

    it(`rate-limits the custom rule: ${LIMITED_MAX} requests, then 429`, async () => {
      // A client of its own: the counter is per address and path.
      const limited = new SmokeClient(base());
      for (let i = 0; i < LIMITED_MAX; i++) expect((await limited.get(LIMITED_PATH)).status).toBe(200);
      const res = await limited.get(LIMITED_PATH);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("x-retry-after"))).toBeGreaterThan(0);
      expect(res.body).toEqual({ message: "Too many requests. Please try again later." });
      // Another address is not affected.
      expect((await new SmokeClient(base()).get(LIMITED_PATH)).status).toBe(200);
    });

    it("signs out (403 without Origin, 200 with it), then neither cookie nor Bearer has a session", async () => {
      // A cookie-carrying POST must name a trusted origin (CSRF), on every runtime alike.
      const refused = await client.send("/sign-out", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: "{}",
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: "MISSING_OR_NULL_ORIGIN" });

      const res = await client.post("/sign-out", {}, { cookie });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);

      const credentials: Array<Record<string, string>> = [{ cookie }, { authorization: `Bearer ${bearer}` }];
      for (const headers of credentials) {
        const after = await client.get("/get-session", headers);
        expect(after.status).toBe(200);
        expect(after.body).toBeNull();
      }
    });
  });
}
