import { describe, expect, it } from "vitest";
import { BASE, cookiePair, findCookie, testInstance } from "./support/instance.ts";

// `curl -X POST` and `fetch(url, { method: "POST" })` send no body; Node servers still hand
// `auth.handler` an (empty) stream. The reference, behind its Node adapter, sees no body:
// zero bytes are an empty input here too, whatever the Content-Type.

const user = { name: "Ada", email: "ada@example.com", password: "password-1234" };
const emptyStream = (): ReadableStream<Uint8Array> => new ReadableStream({ start: (c) => c.close() });
const bodies: Array<[string, () => BodyInit | null]> = [
  ["no body", () => null],
  ["an empty stream", emptyStream],
  ["an empty string", () => ""],
];

async function withSession(options: Parameters<typeof testInstance>[0] = {}) {
  const t = testInstance(options);
  const res = await t.post("/sign-up/email", user);
  const cookie = cookiePair(findCookie(res, "better-auth.session_token")!);
  const bare = (path: string, body: BodyInit | null, headers: Record<string, string> = {}) =>
    t.auth.handler(
      new Request(`${BASE}/api/auth${path}`, {
        method: "POST",
        headers,
        body,
        duplex: "half",
      } as RequestInit),
    );
  return { ...t, cookie, bare };
}

describe("a POST without a body", () => {
  for (const [what, body] of bodies) {
    it(`${what}: /sign-out answers 200 with a session`, async () => {
      const t = await withSession();
      const res = await t.bare("/sign-out", body(), { cookie: t.cookie });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
      expect(t.count("session")).toBe(0);
    });

    it(`${what}: a route that needs fields answers 400 VALIDATION_ERROR, not 415`, async () => {
      const t = await withSession();
      const res = await t.bare("/sign-in/email", body());
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe("VALIDATION_ERROR");
    });
  }

  it("an empty body under Content-Type: application/json is an empty input too", async () => {
    const t = await withSession();
    const res = await t.bare("/sign-in/email", "", { "content-type": "application/json" });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("VALIDATION_ERROR");
  });

  it("whitespace is a body: Invalid JSON, as the reference answers", async () => {
    const t = await withSession();
    const res = await t.bare("/sign-in/email", "  \n", { "content-type": "application/json" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "BAD_REQUEST", message: "Invalid JSON in request body" });
  });

  it("a non-empty body without Content-Type is still refused (415)", async () => {
    const t = await withSession();
    const res = await t.bare("/sign-out", new TextEncoder().encode("{}"), { cookie: t.cookie });
    expect(res.status).toBe(415);
    expect((await res.json()).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(t.count("session")).toBe(1);
  });

  it("the origin check still runs first (403 without an Origin)", async () => {
    const t = await withSession({ advanced: { disableOriginCheck: false, disableCSRFCheck: false } });
    const res = await t.bare("/sign-out", emptyStream(), { cookie: t.cookie });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe("MISSING_OR_NULL_ORIGIN");
    expect(t.count("session")).toBe(1);
  });
});
