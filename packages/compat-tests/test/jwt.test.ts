import { createAuthClient } from "better-auth/client";
import { jwt as referenceJwt } from "better-auth/plugins/jwt";
import { jwtClient } from "better-auth/client/plugins";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
} from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jwt } from "@latchkey/jwt";
import { cookiePair } from "./support/cookies.ts";
import { signUp } from "./support/flows.ts";
import { BASE_URL, createPair, url, type Handler, type Pair } from "./support/instances.ts";

/**
 * `@latchkey/jwt` beside the reference's `jwt()` on one SQLite file and one secret: each side
 * signs with key rows the other wrote (so the private-key storage format matches both ways),
 * and the wire shapes of `/jwks`, `/token` and the `set-auth-jwt` header are compared.
 */
type JwtOptions = Parameters<typeof jwt>[0];
let pair: Pair | undefined;
afterEach(() => pair?.close());

async function pairWith(options: JwtOptions = {}): Promise<Pair> {
  pair = await createPair({
    // The reference's option types are its own; the values are the same literal object.
    reference: { plugins: [referenceJwt(options as Parameters<typeof referenceJwt>[0])] },
    latchkey: { plugins: [jwt(options)] },
  });
  return pair;
}

const ada = { email: "ada@example.com", password: "correct horse battery", name: "Ada" };
const get = (handler: Handler, path: string, cookie?: string): Promise<Response> =>
  handler(new Request(url(path), { headers: cookie ? { cookie } : {} }));
const keysOf = async (handler: Handler): Promise<JSONWebKeySet> => (await (await get(handler, "/jwks")).json()) as JSONWebKeySet;
const tokenOf = async (handler: Handler, cookie: string): Promise<string> =>
  ((await (await get(handler, "/token", cookie)).json()) as { token: string }).token;
const verifyWith = (keys: JSONWebKeySet, token: string) =>
  jwtVerify(token, createLocalJWKSet(keys), { issuer: BASE_URL, audience: BASE_URL });
const jwksRows = (p: Pair) => p.db.prepare("select * from jwks order by createdAt").all([]) as Array<Record<string, unknown>>;

describe("jwt: key rows shared both ways", () => {
  it("a key the reference wrote: Latchkey signs with it, and each side's token verifies with the other's /jwks", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const referenceKeys = await keysOf(p.reference);
    expect(jwksRows(p)).toHaveLength(1);
    const latchkeyToken = await tokenOf(p.latchkey, cookie);
    // Latchkey decrypted the reference's private key: its token names the reference's row.
    expect(decodeProtectedHeader(latchkeyToken).kid).toBe(referenceKeys.keys[0]!.kid);
    await verifyWith(referenceKeys, latchkeyToken);
    await verifyWith(await keysOf(p.latchkey), await tokenOf(p.reference, cookie));
    expect(jwksRows(p)).toHaveLength(1);
  });

  it("a key Latchkey wrote: the reference signs with it and serves the same set", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const latchkeyToken = await tokenOf(p.latchkey, cookie);
    const [row] = jwksRows(p);
    expect(row).toMatchObject({ alg: "EdDSA", crv: "Ed25519", expiresAt: null });
    expect(row!.privateKey).toMatch(/^"[0-9a-f]+"$/);
    const referenceToken = await tokenOf(p.reference, cookie);
    expect(decodeProtectedHeader(referenceToken)).toEqual(decodeProtectedHeader(latchkeyToken));
    await verifyWith(await keysOf(p.reference), latchkeyToken);
    await verifyWith(await keysOf(p.latchkey), referenceToken);
    expect(jwksRows(p)).toHaveLength(1);
  });

  for (const options of [
    { jwks: { keyPairConfig: { alg: "ES256" } } },
    { jwks: { keyPairConfig: { alg: "RS256", modulusLength: 2048 } } },
    { jwks: { disablePrivateKeyEncryption: true } },
    { jwks: { rotationInterval: 3600 } },
  ] as const satisfies JwtOptions[]) {
    it(`${JSON.stringify(options)}: rows written by either side are used by the other`, async () => {
      const p = await pairWith(options);
      const { cookie } = await signUp(p.reference, ada);
      const first = await tokenOf(p.latchkey, cookie);
      const second = await tokenOf(p.reference, cookie);
      expect(decodeProtectedHeader(second).kid).toBe(decodeProtectedHeader(first).kid);
      // Same stored columns as the reference would write (compare with a reference-made row).
      const latchkeyRow = jwksRows(p)[0]!;
      p.db.prepare("delete from jwks").run([]);
      await tokenOf(p.reference, cookie);
      const referenceRow = jwksRows(p)[0]!;
      expect(Object.keys(latchkeyRow).sort()).toEqual(Object.keys(referenceRow).sort());
      for (const column of ["alg", "crv"]) expect(latchkeyRow[column]).toEqual(referenceRow[column]);
      expect(latchkeyRow.expiresAt === null).toBe(referenceRow.expiresAt === null);
      expect(Object.keys(JSON.parse(latchkeyRow.publicKey as string) as object).sort()).toEqual(
        Object.keys(JSON.parse(referenceRow.publicKey as string) as object).sort(),
      );
      expect(typeof JSON.parse(latchkeyRow.privateKey as string)).toBe(typeof JSON.parse(referenceRow.privateKey as string));
      // Latchkey holds its keys in memory for 30 s (DIVERGENCES.md row 137): past that, it signs
      // with the reference's new row.
      vi.useFakeTimers({ toFake: ["Date"] });
      try {
        vi.setSystemTime(Date.now() + KEY_MEMORY_MS);
        await verifyWith(await keysOf(p.reference), await tokenOf(p.latchkey, cookie));
      } finally {
        vi.useRealTimers();
      }
    });
  }

  it("a key removed from the table: the reference signs with a new one at once, Latchkey with the key in memory for up to 30 s (row 137)", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const held = decodeProtectedHeader(await tokenOf(p.latchkey, cookie)).kid;
    p.db.prepare("delete from jwks").run([]);
    const made = decodeProtectedHeader(await tokenOf(p.reference, cookie)).kid;
    expect(made).not.toBe(held);
    expect(decodeProtectedHeader(await tokenOf(p.latchkey, cookie)).kid).toBe(held);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + KEY_MEMORY_MS);
      expect(decodeProtectedHeader(await tokenOf(p.latchkey, cookie)).kid).toBe(made);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** Past the jwt plugin's 30 s key cache (`KEY_CACHE_TTL_MS`). */
const KEY_MEMORY_MS = 31_000;

describe("jwt: wire", () => {
  it("/jwks answers the same bytes on both", async () => {
    const p = await pairWith();
    await get(p.reference, "/jwks");
    const [a, b] = [await get(p.reference, "/jwks"), await get(p.latchkey, "/jwks")];
    expect([b.status, b.headers.get("content-type")]).toEqual([a.status, a.headers.get("content-type")]);
    expect(await b.text()).toBe(await a.text());
  });

  it("/token: same header, same claims (times aside); 401 bodies equal without a session", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const [r, l] = [await tokenOf(p.reference, cookie), await tokenOf(p.latchkey, cookie)];
    expect(decodeProtectedHeader(l)).toEqual(decodeProtectedHeader(r));
    const times = ({ iat, exp, ...rest }: Record<string, unknown>) => ({ rest, life: (exp as number) - (iat as number) });
    const [rc, lc] = [decodeJwt(r), decodeJwt(l)];
    // Member order aside (RFC 8259 §4: object members are unordered; the reference's user row
    // lists `id` last), the claims are the same, and so is the lifetime.
    expect(times(lc)).toEqual(times(rc));
    const [ra, la] = [await get(p.reference, "/token"), await get(p.latchkey, "/token")];
    expect([la.status, await la.json()]).toEqual([ra.status, await ra.json()]);
  });

  it("set-auth-jwt on /get-session: present with a session on both, exposed the same way, absent without", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const [ra, la] = [await get(p.reference, "/get-session", cookie), await get(p.latchkey, "/get-session", cookie)];
    const [r, l] = [ra.headers.get("set-auth-jwt"), la.headers.get("set-auth-jwt")];
    expect(r && l).toBeTruthy();
    expect(la.headers.get("access-control-expose-headers")).toBe(ra.headers.get("access-control-expose-headers"));
    expect(decodeProtectedHeader(l!)).toEqual(decodeProtectedHeader(r!));
    expect(Object.keys(decodeJwt(l!)).sort()).toEqual(Object.keys(decodeJwt(r!)).sort());
    for (const handler of [p.reference, p.latchkey]) {
      expect((await get(handler, "/get-session")).headers.get("set-auth-jwt")).toBeNull();
    }
  });

  it("disableSettingJwtHeader: neither sends it", async () => {
    const p = await pairWith({ disableSettingJwtHeader: true });
    const { cookie } = await signUp(p.reference, ada);
    for (const handler of [p.reference, p.latchkey]) {
      expect((await get(handler, "/get-session", cookie)).headers.get("set-auth-jwt")).toBeNull();
    }
  });
});

describe("jwt: signJWT overrideOptions", () => {
  type SignApi = { signJWT(input: { body: Record<string, unknown> }): Promise<{ token: string }> };
  for (const overrideOptions of [
    { jwt: { audience: "other-aud" } },
    { jwt: { issuer: "https://other.test", expirationTime: "2h" } },
    { jwks: { keyPairConfig: { alg: "ES256" } } },
  ]) {
    it(`${JSON.stringify(overrideOptions)}: the same claims and header on both`, async () => {
      const p = await pairWith({ jwt: { issuer: "https://plugin.test", audience: "plugin-aud", expirationTime: "1h" } });
      const sign = async (api: unknown) => {
        p.db.prepare("delete from jwks").run([]);
        const { token } = await (api as SignApi).signJWT({ body: { payload: { sub: "s1", iat: 1_700_000_000 }, overrideOptions } });
        return { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
      };
      const reference = await sign(p.referenceApi);
      const latchkey = await sign(p.latchkeyAuth.api);
      expect(latchkey.claims).toEqual(reference.claims);
      expect(latchkey.header.alg).toBe(reference.header.alg);
    });
  }
});

describe("jwt: sessionCookieCache", () => {
  const DATA_COOKIE = "better-auth.session_data";
  const cacheOptions = { session: { cookieCache: { enabled: true, strategy: "jwt" as const } } };
  const cachePair = async (): Promise<Pair> => {
    pair = await createPair({
      reference: { ...cacheOptions, plugins: [referenceJwt({ sessionCookieCache: true })] },
      latchkey: { ...cacheOptions, plugins: [jwt({ sessionCookieCache: true })] },
    });
    return pair;
  };
  const sessionEmail = async (handler: Handler, cookie: string): Promise<string | null> =>
    (((await (await get(handler, "/get-session", cookie)).json()) as { user: { email: string } } | null)?.user.email ?? null);

  for (const [writer, reader] of [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const) {
    it(`a cache JWT the ${writer} wrote under the plugin's keys is read by the ${reader} (sessions deleted)`, async () => {
      const p = await cachePair();
      const { cookie, response } = await signUp(p[writer], ada);
      const data = cookiePair(response, DATA_COOKIE);
      const value = data.slice(DATA_COOKIE.length + 1);
      const header = decodeProtectedHeader(value);
      expect(header).toMatchObject({ alg: "EdDSA", typ: "better-auth.session-cache+jwt" });
      // Signed with the shared key row, so either side's /jwks verifies it.
      expect(header.kid).toBe((await keysOf(p[reader])).keys[0]!.kid);
      const claims = decodeJwt(value);
      expect(claims).toMatchObject({ aud: "better-auth:session-cache", iss: BASE_URL, sub: claims.user && (claims.user as { id: string }).id });
      // From here on only the cache can vouch for the session.
      p.db.prepare("delete from session").run([]);
      expect(await sessionEmail(p[reader], `${cookie}; ${data}`)).toBe(ada.email);
      // Without the cache the session is gone on both.
      expect(await sessionEmail(p[reader], cookie)).toBeNull();
    });
  }

  it("the claims are the same on both sides (times aside)", async () => {
    const p = await cachePair();
    const values = [];
    for (const handler of [p.reference, p.latchkey]) {
      const { response } = await signUp(handler, { ...ada, email: `${values.length}${ada.email}` });
      values.push(cookiePair(response, DATA_COOKIE).slice(DATA_COOKIE.length + 1));
    }
    const [r, l] = values.map((v) => decodeJwt(v!));
    expect(Object.keys(l!).sort()).toEqual(Object.keys(r!).sort());
    expect(l!.exp! - l!.iat!).toBe(r!.exp! - r!.iat!);
    expect(decodeProtectedHeader(values[1]!)).toEqual(decodeProtectedHeader(values[0]!));
  });
});

describe("jwt: the reference's jwtClient against Latchkey", () => {
  it("jwks() and the set-auth-jwt header work unchanged", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.latchkey, ada);
    const client = createAuthClient({
      baseURL: url(""),
      plugins: [jwtClient()],
      fetchOptions: {
        customFetchImpl: (input, init) => {
          const request = new Request(input, init);
          request.headers.set("cookie", cookie);
          return p.latchkey(request);
        },
      },
    });
    const { data, error } = await client.jwks();
    expect(error).toBeNull();
    expect(data).toEqual(await keysOf(p.latchkey));
    let header: string | null = null;
    await client.getSession({ fetchOptions: { onSuccess: (ctx) => void (header = ctx.response.headers.get("set-auth-jwt")) } });
    expect(header).toBeTruthy();
    await verifyWith(data as JSONWebKeySet, header!);
  });
});

describe("jwt: divergences (DIVERGENCES.md)", () => {
  it("row 131: with jwks.remoteUrl and jwt.sign, verifyJWT — the reference reads the empty local table (null), Latchkey the remote set", async () => {
    // A key only the test holds (the KMS), published by a key-set server on 127.0.0.1.
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const keySet = { keys: [{ ...(await exportJWK(publicKey)), kid: "kms-1", alg: "ES256" }] };
    const server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(keySet));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const options = {
        jwks: { remoteUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`, keyPairConfig: { alg: "ES256" } },
        jwt: {
          sign: (payload: Record<string, unknown>) =>
            new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid: "kms-1" }).sign(privateKey),
        },
      } as const;
      const p = await pairWith(options as JwtOptions);
      type Api = {
        signJWT(input: { body: Record<string, unknown> }): Promise<{ token: string }>;
        verifyJWT(input: { body: Record<string, unknown> }): Promise<{ payload: Record<string, unknown> | null }>;
      };
      const [reference, latchkey] = [p.referenceApi as unknown as Api, p.latchkeyAuth.api as unknown as Api];
      const [r404, l404] = [await get(p.reference, "/jwks"), await get(p.latchkey, "/jwks")];
      expect([l404.status, await l404.text()]).toEqual([r404.status, await r404.text()]);
      expect(r404.status).toBe(404);
      for (const api of [reference, latchkey]) {
        const { token } = await api.signJWT({ body: { payload: { sub: "s1" } } });
        // Both sides' tokens verify against the published set.
        await verifyWith(keySet, token);
        expect((await reference.verifyJWT({ body: { token } })).payload).toBeNull();
        expect((await latchkey.verifyJWT({ body: { token } })).payload).toMatchObject({ sub: "s1", iss: BASE_URL });
      }
      expect(jwksRows(p)).toHaveLength(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("row 60: 10 parallel first /jwks calls on an empty table — the reference makes a key per request, Latchkey one", async () => {
    const p = await pairWith();
    const burst = async (handler: Handler): Promise<number> => {
      p.db.prepare("delete from jwks").run([]);
      const answers = await Promise.all(Array.from({ length: 10 }, () => get(handler, "/jwks")));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      return jwksRows(p).length;
    };
    expect(await burst(p.reference)).toBeGreaterThan(1);
    expect(await burst(p.latchkey)).toBe(1);
  });
});
