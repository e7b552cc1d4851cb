import { decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { COOKIE_CACHE_SIGNER, provide, type CookieCacheStrategy, type LatchkeyPlugin, type Row } from "../src/index.ts";
import { cacheInstance, DATA_COOKIE, Jar, setCookies } from "./support/cache-instance.ts";

// A plugin publishing COOKIE_CACHE_SIGNER: the `jwt` strategy's cache is then an ES256 JWT
// under a key the plugin holds (the jwt plugin's `sessionCookieCache` uses this hook).
const { privateKey, publicKey } = await generateKeyPair("ES256");
const AUDIENCE = "test:session-cache";

function signerPlugin(counts = { sign: 0, verify: 0 }, dropExp = false): LatchkeyPlugin {
  return {
    id: "cache-signer",
    init: () => ({
      services: [
        provide(COOKIE_CACHE_SIGNER, {
          sign: async (data, expiresIn) => {
            counts.sign++;
            const jwt = new SignJWT({ ...data }).setProtectedHeader({ alg: "ES256", typ: "cache+jwt" }).setAudience(AUDIENCE);
            return (dropExp ? jwt : jwt.setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)).sign(privateKey);
          },
          verify: async (value) => {
            counts.verify++;
            try {
              return (await jwtVerify(value, publicKey, { audience: AUDIENCE, typ: "cache+jwt" })).payload;
            } catch {
              return null;
            }
          },
        }),
      ],
    }),
  };
}

const user = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };
const dataCookie = (res: Response) => setCookies(res).find((c) => c.name === DATA_COOKIE);

function instance(strategy: CookieCacheStrategy, plugins: LatchkeyPlugin[], store: Record<string, Row[]> = {}) {
  return cacheInstance({ session: { cookieCache: { enabled: true, strategy } }, plugins }, store);
}

describe("COOKIE_CACHE_SIGNER", () => {
  it("signs and verifies the jwt strategy's cache: sessions are answered from it without storage", async () => {
    const counts = { sign: 0, verify: 0 };
    const t = instance("jwt", [signerPlugin(counts)]);
    const res = await t.post("/sign-up/email", user);
    const cookie = dataCookie(res)!;
    expect(decodeProtectedHeader(cookie.value)).toEqual({ alg: "ES256", typ: "cache+jwt" });
    expect(counts.sign).toBe(1);
    const jar = new Jar().store(res);
    t.dropSessions();
    const answer = await t.getSession(jar.header());
    expect(((await answer.json()) as { user: { email: string } } | null)?.user.email).toBe(user.email);
    expect(counts.verify).toBe(1);
  });

  it("with the signer, a core HS256 cache under the same secret is refused; without it, the signer's cache is", async () => {
    const store: Record<string, Row[]> = {};
    const plain = instance("jwt", [], store);
    const signed = instance("jwt", [signerPlugin()], store);
    const fromPlain = new Jar().store(await plain.post("/sign-up/email", user));
    const fromSigned = new Jar().store(await signed.post("/sign-in/email", { email: user.email, password: user.password }));
    store.session = [];
    for (const [t, jar] of [
      [signed, fromPlain],
      [plain, fromSigned],
    ] as const) {
      const res = await t.getSession(jar.header());
      expect(await res.json()).toBeNull();
      // The unusable cache is expired.
      expect(dataCookie(res)?.maxAge).toBe(0);
    }
  });

  it("a verified value without exp is refused; other strategies never call the signer", async () => {
    const noExp = instance("jwt", [signerPlugin(undefined, true)]);
    const jar = new Jar().store(await noExp.post("/sign-up/email", user));
    noExp.dropSessions();
    expect(await (await noExp.getSession(jar.header())).json()).toBeNull();
    for (const strategy of ["compact", "jwe"] as const) {
      const counts = { sign: 0, verify: 0 };
      const t = instance(strategy, [signerPlugin(counts)]);
      const j = new Jar().store(await t.post("/sign-up/email", user));
      t.dropSessions();
      expect(await (await t.getSession(j.header())).json()).not.toBeNull();
      expect(counts).toEqual({ sign: 0, verify: 0 });
    }
  });
});
