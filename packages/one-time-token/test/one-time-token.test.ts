import { createHash } from "node:crypto";
import { client, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTimeToken } from "../src/index.ts";
import { generate, ottInstance, SESSION_COOKIE, signedIn } from "./instance.ts";

const invalid = { message: "Invalid token" };

/** The verification rows whose identifier starts with `one-time-token:`. */
async function ottRows(t: TestAuth) {
  const rows = await t.auth.$context.adapter.findMany<{ identifier: string; value: string; expiresAt: Date }>({
    model: "verification",
  });
  return rows.filter((r) => r.identifier.startsWith("one-time-token:"));
}

describe("generate and verify (plain tokens, SQLite)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await ottInstance("sqlite");
  });
  afterAll(() => t.close());

  it("generate needs a session", async () => {
    const answer = await client(t.auth).get("/one-time-token/generate");
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
  });

  it("a token: 32 URL-safe characters, stored as one-time-token:<token> → the session token, for 3 minutes", async () => {
    const { browser, token: sessionToken } = await signedIn(t, "plain");
    const before = Date.now();
    const token = await generate(browser);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const row = (await ottRows(t)).find((r) => r.identifier === `one-time-token:${token}`);
    expect(row?.value).toBe(sessionToken);
    const ttl = new Date(row!.expiresAt).getTime() - before;
    expect(ttl).toBeGreaterThan(170_000);
    expect(ttl).toBeLessThanOrEqual(181_000);
  });

  it("verify answers { session, user }, sets the session cookie, and the token is spent", async () => {
    const { browser, token: sessionToken, userId } = await signedIn(t, "verify");
    const token = await generate(browser);
    const other = client(t.auth);
    const answer = await other.post<{ session: { token: string; userId: string }; user: { id: string } }>(
      "/one-time-token/verify",
      { token },
    );
    expect(answer.status).toBe(200);
    expect(answer.json?.session).toMatchObject({ token: sessionToken, userId });
    expect(answer.json?.user.id).toBe(userId);
    expect(other.jar.values.has(SESSION_COOKIE)).toBe(true);
    expect((await other.get<{ session: { token: string } }>("/get-session")).json?.session.token).toBe(sessionToken);
    const again = await client(t.auth).post("/one-time-token/verify", { token });
    expect(again.status).toBe(400);
    expect(again.json).toEqual(invalid);
  });

  it("unknown and expired tokens: 400 Invalid token, no cookie", async () => {
    const { browser } = await signedIn(t, "expired");
    const token = await generate(browser);
    await t.auth.$context.adapter.updateMany({
      model: "verification",
      where: [{ field: "identifier", value: `one-time-token:${token}` }],
      update: { expiresAt: new Date(Date.now() - 1000) },
    });
    for (const sent of [token, "never-issued-token"]) {
      const answer = await client(t.auth).post("/one-time-token/verify", { token: sent });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(invalid);
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it("a session gone: 400 Session not found; a session expired: 400 Session expired and no cookie (row 96)", async () => {
    const gone = await signedIn(t, "gone");
    const goneToken = await generate(gone.browser);
    await t.auth.$context.internalAdapter.deleteSession(gone.token);
    const notFound = await client(t.auth).post("/one-time-token/verify", { token: goneToken });
    expect(notFound.json).toEqual({ message: "Session not found" });

    const old = await signedIn(t, "old");
    const oldToken = await generate(old.browser);
    await t.auth.$context.adapter.updateMany({
      model: "session",
      where: [{ field: "token", value: old.token }],
      update: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await client(t.auth).post("/one-time-token/verify", { token: oldToken });
    expect(expired.status).toBe(400);
    expect(expired.json).toEqual({ message: "Session expired" });
    expect(expired.headers.getSetCookie()).toEqual([]);
  });
});

describe("options", () => {
  it("storeToken hashed: the row holds SHA-256 base64url of the token, never the token", async () => {
    const t = await ottInstance("sqlite", { storeToken: "hashed" });
    const { browser } = await signedIn(t, "hashed");
    const token = await generate(browser);
    const hashed = createHash("sha256").update(token).digest("base64url");
    const identifiers = (await ottRows(t)).map((r) => r.identifier);
    expect(identifiers).toEqual([`one-time-token:${hashed}`]);
    expect((await client(t.auth).post("/one-time-token/verify", { token })).status).toBe(200);
    expect((await client(t.auth).post("/one-time-token/verify", { token: hashed })).status).toBe(400);
    await t.close();
  });

  it("storeToken custom-hasher and generateToken", async () => {
    const t = await ottInstance("sqlite", {
      storeToken: { type: "custom-hasher", hash: async (token) => `h(${token})` },
      generateToken: (session) => `ott-for-${session.user.name}`,
      expiresIn: 10,
    });
    const { browser } = await signedIn(t, "custom");
    const token = await generate(browser);
    expect(token).toBe("ott-for-custom");
    const [row] = await ottRows(t);
    expect(row?.identifier).toBe("one-time-token:h(ott-for-custom)");
    // expiresIn is in minutes (reference): 10 → about 600 s.
    expect(new Date(row!.expiresAt).getTime() - Date.now()).toBeGreaterThan(590_000);
    expect((await client(t.auth).post("/one-time-token/verify", { token })).status).toBe(200);
    await t.close();
  });

  it("disableClientRequest: 400 over HTTP, auth.api still makes tokens", async () => {
    const t = await ottInstance("sqlite", { disableClientRequest: true });
    const { browser } = await signedIn(t, "server-only");
    const answer = await browser.get("/one-time-token/generate");
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ message: "Client requests are disabled" });
    // testAuth's instance is typed for core only; the server call is the plugin's generateOneTimeToken.
    const api = t.auth.api as unknown as { generateOneTimeToken(a: { headers: Headers }): Promise<{ token: string }> };
    const made = await api.generateOneTimeToken({ headers: new Headers({ cookie: browser.jar.header()! }) });
    expect((await client(t.auth).post("/one-time-token/verify", { token: made.token })).status).toBe(200);
    await t.close();
  });

  it("disableSetSessionCookie: the session is answered, no cookie set", async () => {
    const t = await ottInstance("sqlite", { disableSetSessionCookie: true });
    const token = await generate((await signedIn(t, "nocookie")).browser);
    const answer = await client(t.auth).post("/one-time-token/verify", { token });
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie()).toEqual([]);
    await t.close();
  });

  it("setOttHeaderOnNewSession: sign-in answers carry set-ott, exposed, redeemable for that session", async () => {
    const t = await ottInstance("sqlite", { setOttHeaderOnNewSession: true });
    const c = client(t.auth);
    const answer = await c.post<{ token: string }>("/sign-up/email", { email: "ott@example.com", password: "correct horse battery", name: "o" });
    const ott = answer.headers.get("set-ott");
    expect(ott).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(answer.headers.get("access-control-expose-headers")).toContain("set-ott");
    const verified = await client(t.auth).post<{ session: { token: string } }>("/one-time-token/verify", { token: ott });
    expect(verified.json?.session.token).toBe(answer.json?.token);
    expect((await c.get("/get-session")).headers.get("set-ott")).toBeNull();
    await t.close();
  });

  it.each([{ expiresIn: 0 }, { expiresIn: -1 }, { storeToken: "sha1" }])("%j is a TypeError", (options) => {
    expect(() => oneTimeToken(options as never)).toThrow(TypeError);
  });
});
