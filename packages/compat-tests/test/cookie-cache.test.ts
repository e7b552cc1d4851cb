import { getCookieCache, getCookies, setCookieCache as referenceSetCookieCache } from "better-auth/cookies";
import { base64UrlDecode, base64UrlEncode, hmacBase64Url, utf8Decode, utf8Encode } from "@latchkey/core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createCachePair, type CachePair, type Strategy } from "./support/cache-pair.ts";
import { cookiePair, responseCookies, SESSION_COOKIE, SESSION_DATA_COOKIE } from "./support/cookies.ts";
import { getSession, signUp, type SessionBody } from "./support/flows.ts";
import { BASE_URL, jsonPost, SECRET, type Handler } from "./support/instances.ts";

/** `name=value; …` of every cookie a response sets (expired ones left out), as a browser sends them back. */
const cookieHeader = (response: Response): string =>
  responseCookies(response)
    .filter((c) => c.value !== "")
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
const cacheValue = (response: Response): string => {
  const cookie = responseCookies(response).find((c) => c.name === SESSION_DATA_COOKIE && c.value !== "");
  if (!cookie) throw new Error("no session_data cookie");
  return cookie.value;
};

/** The `{session, user, updatedAt, version}` a compact or jwt cache value carries (JSON as written). */
function sessionData(strategy: Strategy, value: string): { session: object; user: object } {
  if (strategy === "compact") return (JSON.parse(utf8Decode(base64UrlDecode(value))) as { session: { session: object; user: object } }).session;
  return JSON.parse(utf8Decode(base64UrlDecode(value.split(".")[1]!))) as { session: object; user: object };
}

/** The cache value the reference's own `setCookieCache` computes for `data`, now. */
async function referenceCacheValue(strategy: Strategy, data: { session: object; user: object }): Promise<string> {
  const options = { baseURL: BASE_URL, secret: SECRET, session: { cookieCache: { enabled: true, strategy } } };
  const written: Array<{ name: string; value: string }> = [];
  const noop = (): void => undefined;
  // The smallest endpoint context its setCookieCache reads: options, cookies, secret, a sink.
  const ctx = {
    headers: new Headers(),
    responseHeaders: new Headers(),
    setCookie: (name: string, value: string) => written.push({ name, value }),
    context: {
      options,
      authCookies: getCookies(options),
      secret: SECRET,
      secretConfig: SECRET,
      sessionConfig: {},
      logger: { debug: noop, info: noop, warn: noop, error: noop },
    },
  };
  await referenceSetCookieCache(ctx as unknown as Parameters<typeof referenceSetCookieCache>[0], data as never, false);
  const value = written.find((w) => w.name === SESSION_DATA_COOKIE)?.value;
  if (!value) throw new Error("the reference wrote no cache");
  return value;
}

let serial = 0;
const newUser = (extra: Record<string, unknown> = {}) => ({
  name: `Cache ${++serial}`,
  email: `cache${serial}@example.com`,
  password: `pass-word-${serial}`,
  ...extra,
});

const NAMES = { reference: "the reference", latchkey: "Latchkey" } as const;

describe.each(["compact", "jwt", "jwe"] as const)("cookie cache, %s strategy", (strategy) => {
  let pair: CachePair;
  let sides: Record<"reference" | "latchkey", Handler>;
  beforeAll(async () => {
    pair = await createCachePair(strategy);
    sides = { reference: pair.reference, latchkey: pair.latchkey };
  });
  afterAll(() => pair.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const [from, to] of [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const) {
    it(`a cache cookie ${NAMES[from]} wrote answers on ${NAMES[to]} with the session row deleted`, async () => {
      const { response, token, userId } = await signUp(sides[from], newUser({ bio: "from the cache" }));
      const cookie = cookieHeader(response);
      const stored = await getSession(sides[to], { cookie: cookie.replace(/better-auth\.session_data=[^;]*;? ?/, "") });
      pair.dropSession(token);
      const cached = await getSession(sides[to], { cookie });
      expect(cached?.session.token).toBe(token);
      expect(cached?.user.id).toBe(userId);
      expect((cached?.user as SessionBody["user"] & { bio?: string }).bio).toBe("from the cache");
      // The cache carries the same session and user the stored row gave.
      expect(cached).toEqual(stored);
      expect(await getSession(sides[from], { cookie })).toEqual(cached);
    });

    it(`${NAMES[to]} refuses a cache cookie ${NAMES[from]} wrote for another session`, async () => {
      const a = await signUp(sides[from], newUser());
      const b = await signUp(sides[from], newUser());
      pair.dropSession(a.token);
      const foreign = `${a.cookie}; ${SESSION_DATA_COOKIE}=${cacheValue(b.response)}`;
      const res = await sides[to](new Request(`${BASE_URL}/api/auth/get-session`, { headers: { cookie: foreign } }));
      expect(await res.json()).toBeNull();
      expect(responseCookies(res)).toContainEqual(
        expect.objectContaining({ name: SESSION_DATA_COOKIE, value: "", attributes: expect.objectContaining({ "max-age": "0" }) }),
      );
    });
  }

  it("the reference's getCookieCache helper reads Latchkey's cache cookie", async () => {
    const { response, token } = await signUp(pair.latchkey, newUser());
    const payload = await getCookieCache(new Headers({ cookie: cookieHeader(response) }), {
      secret: SECRET,
      strategy,
      isSecure: false,
    });
    expect(payload?.session.token).toBe(token);
    expect(payload?.version).toBe("1");
  });

  if (strategy !== "jwe") {
    // jwe values carry a random IV and jti; compact and jwt are deterministic at a given instant.
    it("byte for byte: Latchkey's cache cookie is what the reference computes for the same data", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const { response } = await signUp(pair.latchkey, newUser({ bio: "bytes" }));
      const ours = cacheValue(response);
      expect(await referenceCacheValue(strategy, sessionData(strategy, ours))).toBe(ours);
    });

    it("byte for byte: Latchkey encodes the reference's data into the reference's cookie", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const { response } = await signUp(pair.reference, newUser({ bio: "bytes" }));
      const theirs = cacheValue(response);
      const { session, user } = sessionData(strategy, theirs);
      const written = await pair.latchkey(jsonPost("/test/write-cookie-cache", { session, user }));
      expect(written.status).toBe(200);
      expect(cacheValue(written)).toBe(theirs);
    });
  }
});

describe("cookie cache divergences (DIVERGENCES.md)", () => {
  let compact: CachePair;
  beforeAll(async () => {
    compact = await createCachePair("compact");
  });
  afterAll(() => compact.close());

  it("a compact cache cookie that is not base64url: the reference answers 500, Latchkey expires it and reads storage", async () => {
    const { cookie, token } = await signUp(compact.reference, newUser());
    const request = (): Request =>
      new Request(`${BASE_URL}/api/auth/get-session`, { headers: { cookie: `${cookie}; ${SESSION_DATA_COOKIE}=%%%` } });
    const reference = await compact.reference(request());
    expect(reference.status).toBe(500);
    expect(await reference.json()).toEqual({ message: "Failed to get session", code: "FAILED_TO_GET_SESSION" });
    const latchkey = await compact.latchkey(request());
    expect(latchkey.status).toBe(200);
    expect(((await latchkey.json()) as SessionBody).session.token).toBe(token);
    const written = responseCookies(latchkey).filter((c) => c.name === SESSION_DATA_COOKIE);
    expect(written.map((c) => c.attributes["max-age"])).toEqual(["0", "300"]);
  });

  it("a user whose name looks like an ISO date: the reference never serves the cache, Latchkey does", async () => {
    for (const side of ["reference", "latchkey"] as const) {
      const handler = side === "reference" ? compact.reference : compact.latchkey;
      const { response, token } = await signUp(handler, newUser({ name: "2024-01-01T00:00:00.000Z" }));
      compact.dropSession(token);
      const cached = await getSession(handler, { cookie: cookieHeader(response) });
      // The reference's JSON reviver turns the name into a Date, which its schema then refuses.
      if (side === "reference") expect(cached).toBeNull();
      else expect(cached?.user.name).toBe("2024-01-01T00:00:00.000Z");
    }
  });

  // Retried: once, under a fully loaded CI run, the reference side answered null here (not
  // reproduced in isolation); under investigation, see the session notes. Assertions unchanged.
  it("a jwt cache without `exp` (minted with the secret): the reference serves it whenever its clock does not tick mid-request, Latchkey refuses it", async () => {
    const jwt = await createCachePair("jwt");
    try {
      const { response, token } = await signUp(jwt.reference, newUser());
      const { exp: _exp, iat: _iat, ...claims } = sessionData("jwt", cacheValue(response)) as Record<string, unknown>;
      // HS256 by hand (RFC 7515 §3.1): HMAC-SHA256 over "header.payload" under the secret.
      const signingInput = `${base64UrlEncode(utf8Encode('{"alg":"HS256"}'))}.${base64UrlEncode(utf8Encode(JSON.stringify(claims)))}`;
      const forever = `${signingInput}.${await hmacBase64Url(SECRET, signingInput)}`;
      jwt.dropSession(token);
      const cookie = `${cookiePair(response, SESSION_COOKIE)}; ${SESSION_DATA_COOKIE}=${forever}`;
      // The reference dates a cache without `exp` "now" when it decodes it and then checks
      // `expiresAt < now` with a second clock reading: it serves the cache whenever both
      // readings fall in one millisecond (most requests on an idle machine, fewer under load).
      // A held clock makes that case deterministic; Latchkey refuses the token on any clock.
      const clock = vi.spyOn(Date, "now").mockReturnValue(Date.now());
      try {
        expect((await getSession(jwt.reference, { cookie }))?.session.token).toBe(token);
        expect(await getSession(jwt.latchkey, { cookie })).toBeNull();
      } finally {
        clock.mockRestore();
      }
    } finally {
      jwt.close();
    }
  });

  it("a tampered chunked cache with rememberMe false: the reference expires only session_data, Latchkey every chunk", async () => {
    const user = newUser({ bio: "x".repeat(6000) });
    await signUp(compact.reference, user);
    const signIn = await compact.reference(jsonPost("/sign-in/email", { email: user.email, password: user.password, rememberMe: false }));
    const chunks = responseCookies(signIn).filter((c) => c.name.startsWith(`${SESSION_DATA_COOKIE}.`));
    expect(chunks.length).toBeGreaterThan(1);
    const cookie = cookieHeader(signIn).replace(`${chunks[0]!.name}=${chunks[0]!.value}`, `${chunks[0]!.name}=AAAA`);
    const request = (): Request => new Request(`${BASE_URL}/api/auth/get-session`, { headers: { cookie } });
    const expired = async (handler: Handler): Promise<string[]> =>
      responseCookies(await handler(request()))
        .filter((c) => c.attributes["max-age"] === "0")
        .map((c) => c.name);
    expect(await expired(compact.reference)).toEqual([SESSION_DATA_COOKIE]);
    expect(await expired(compact.latchkey)).toEqual([SESSION_DATA_COOKIE, ...chunks.map((c) => c.name)]);
  });
});
