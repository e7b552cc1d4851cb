import { client, TEST_BASE_URL, TEST_SECRET, type TestAuth } from "@latchkey/test-support";
import { symmetricDecrypt } from "@latchkey/core";
import { decodeProtectedHeader, type JSONWebKeySet } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import type { JwkRow } from "../src/index.ts";
import { ada, jwtApi, jwtInstance, signedIn, verifyWithServedKeys } from "./instance.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});
async function instance(...args: Parameters<typeof jwtInstance>): Promise<TestAuth> {
  const t = await jwtInstance(...args);
  open.push(t);
  return t;
}
const rows = (t: TestAuth) => t.auth.$context.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });

describe("GET /jwks", () => {
  it("creates one Ed25519 key on first use and serves it with alg, crv and kid = row id", async () => {
    const t = await instance();
    const res = await client(t.auth).get("/jwks");
    expect(res.status).toBe(200);
    const { keys } = res.json as JSONWebKeySet;
    const [row] = await rows(t);
    expect(keys).toEqual([{ alg: "EdDSA", crv: "Ed25519", kty: "OKP", x: expect.any(String), kid: row!.id }]);
    // A public key only: no private member (RFC 8037 §2 `d`) ever leaves the server.
    expect(keys[0]).not.toHaveProperty("d");
    expect((await client(t.auth).get("/jwks")).json).toEqual({ keys });
    expect(await rows(t)).toHaveLength(1);
  });

  it("stores the private key as a JSON string literal of the secret's ciphertext", async () => {
    const t = await instance();
    await client(t.auth).get("/jwks");
    const [row] = await rows(t);
    expect(row!.privateKey).toMatch(/^"[0-9a-f]+"$/);
    const jwk = JSON.parse(await symmetricDecrypt({ key: TEST_SECRET, data: JSON.parse(row!.privateKey) as string }));
    expect(jwk).toMatchObject({ kty: "OKP", crv: "Ed25519", d: expect.any(String) });
    expect(JSON.parse(row!.publicKey)).toEqual({ kty: "OKP", crv: "Ed25519", x: jwk.x });
    expect(row).toMatchObject({ alg: "EdDSA", crv: "Ed25519", expiresAt: null });
  });

  it("with disablePrivateKeyEncryption stores the plain private JWK", async () => {
    const t = await instance({ jwks: { disablePrivateKeyEncryption: true } });
    await client(t.auth).get("/jwks");
    const [row] = await rows(t);
    expect(JSON.parse(row!.privateKey)).toMatchObject({ kty: "OKP", d: expect.any(String) });
  });

  it("answers on jwksPath instead of /jwks", async () => {
    const t = await instance({ jwks: { jwksPath: "/.well-known/jwks.json" } });
    expect((await client(t.auth).get("/.well-known/jwks.json")).status).toBe(200);
    expect((await client(t.auth).get("/jwks")).status).toBe(404);
  });

  it("refuses a bad jwksPath or algorithm at start-up", async () => {
    const { jwt } = await import("../src/index.ts");
    expect(() => jwt({ jwks: { jwksPath: "jwks" } })).toThrow(TypeError);
    expect(() => jwt({ jwks: { jwksPath: "/../x" } })).toThrow(TypeError);
    // @ts-expect-error an algorithm outside the list
    expect(() => jwt({ jwks: { keyPairConfig: { alg: "HS256" } } })).toThrow(TypeError);
    expect(() => jwt({ jwks: { rotationInterval: -1 } })).toThrow(TypeError);
    // The reference's consistency rules for remote keys.
    expect(() => jwt({ jwt: { sign: () => "x" } })).toThrow(/jwks\.remoteUrl must be set/);
    expect(() => jwt({ jwks: { remoteUrl: "https://keys.test/jwks" } })).toThrow(/keyPairConfig\.alg must be specified/);
    expect(() => jwt({ jwks: { remoteUrl: "file:///etc/keys", keyPairConfig: { alg: "ES256" } } })).toThrow(TypeError);
    // @ts-expect-error an algorithm outside the list
    expect(() => jwt({ jwks: { keyPairConfigs: [{ alg: "HS512" }] } })).toThrow(/keyPairConfigs/);
    expect(() =>
      jwt({
        sessionCookieCache: true,
        jwt: { sign: () => "x" },
        jwks: { remoteUrl: "https://keys.test/jwks", keyPairConfig: { alg: "ES256" } },
      }),
    ).toThrow(/sessionCookieCache/);
  });
});

describe("key algorithms", () => {
  const cases = [
    { config: { alg: "ES256" } as const, kty: "EC", crv: "P-256" },
    { config: { alg: "ES512" } as const, kty: "EC", crv: "P-521" },
    { config: { alg: "RS256" } as const, kty: "RSA", crv: undefined },
    { config: { alg: "PS256" } as const, kty: "RSA", crv: undefined },
    { config: { alg: "EdDSA", crv: "Ed25519" } as const, kty: "OKP", crv: "Ed25519" },
  ];
  for (const { config, kty, crv } of cases) {
    it(`${config.alg}: /token verifies against /jwks`, async () => {
      const t = await instance({ jwks: { keyPairConfig: config } });
      const c = await signedIn(t);
      const { token } = (await c.get("/token")).json as { token: string };
      const keys = (await c.get("/jwks")).json as JSONWebKeySet;
      expect(keys.keys[0]).toMatchObject({ alg: config.alg, kty, ...(crv ? { crv } : {}) });
      expect(decodeProtectedHeader(token)).toEqual({ alg: config.alg, kid: keys.keys[0]!.kid });
      await verifyWithServedKeys(keys, token);
      const [row] = await rows(t);
      expect(row!.crv ?? undefined).toBe(crv);
    });
  }
});

describe("GET /token", () => {
  it("401 without a session", async () => {
    const t = await instance();
    const res = await client(t.auth).get("/token");
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: "UNAUTHORIZED" });
    // No session, no key made.
    expect(await rows(t)).toHaveLength(0);
  });

  it("signs the user with iat, exp = iat + 15m, iss and aud = baseURL, sub = user id", async () => {
    const t = await instance();
    const c = await signedIn(t);
    const res = await c.get("/token");
    expect(res.status).toBe(200);
    const { token } = res.json as { token: string };
    const payload = await verifyWithServedKeys((await c.get("/jwks")).json as JSONWebKeySet, token);
    const user = ((await c.get("/get-session")).json as { user: Record<string, unknown> }).user;
    expect(payload).toEqual({ ...user, iat: expect.any(Number), exp: expect.any(Number), iss: TEST_BASE_URL, aud: TEST_BASE_URL, sub: user.id });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload.email).toBe(ada.email);
  });

  it("definePayload, getSubject, issuer, audience and expirationTime apply", async () => {
    const t = await instance({
      jwt: {
        issuer: "https://issuer.test",
        audience: "https://api.test",
        expirationTime: "1h",
        definePayload: (s) => ({ id: s.user.id, role: "reader" }),
        getSubject: (s) => `user:${s.user.id}`,
      },
    });
    const c = await signedIn(t);
    const { token } = (await c.get("/token")).json as { token: string };
    const payload = await verifyWithServedKeys((await c.get("/jwks")).json as JSONWebKeySet, token, {
      issuer: "https://issuer.test",
      audience: "https://api.test",
    });
    expect(payload).toEqual({
      id: expect.any(String),
      role: "reader",
      sub: `user:${payload.id as string}`,
      iat: expect.any(Number),
      exp: payload.iat! + 3600,
      iss: "https://issuer.test",
      aud: "https://api.test",
    });
  });
});

describe("set-auth-jwt on /get-session", () => {
  it("adds the header and exposes it; none without a session", async () => {
    const t = await instance();
    expect((await client(t.auth).get("/get-session")).headers.get("set-auth-jwt")).toBeNull();
    const c = await signedIn(t);
    const res = await c.get("/get-session");
    const token = res.headers.get("set-auth-jwt");
    expect(token).toBeTruthy();
    expect(res.headers.get("access-control-expose-headers")).toContain("set-auth-jwt");
    const payload = await verifyWithServedKeys((await c.get("/jwks")).json as JSONWebKeySet, token!);
    expect(payload.sub).toBe((res.json as { user: { id: string } }).user.id);
  });

  it("disableSettingJwtHeader turns it off", async () => {
    const t = await instance({ disableSettingJwtHeader: true });
    const c = await signedIn(t);
    expect((await c.get("/get-session")).headers.get("set-auth-jwt")).toBeNull();
  });
});

describe("signJWT / verifyJWT (server only)", () => {
  it("are not routed over HTTP", async () => {
    const t = await instance();
    for (const path of ["/sign-jwt", "/verify-jwt"]) {
      expect((await client(t.auth).post(path, { payload: { sub: "x" }, token: "x" })).status).toBe(404);
    }
  });

  it("sign then verify round-trips; a foreign issuer, a missing kid or garbage verify to null", async () => {
    const t = await instance();
    const api = jwtApi(t);
    const { token } = await api.signJWT({ body: { payload: { sub: "s1", scope: "read" } } });
    const { payload } = await api.verifyJWT({ body: { token } });
    expect(payload).toMatchObject({ sub: "s1", scope: "read", iss: TEST_BASE_URL, aud: TEST_BASE_URL });
    expect((await api.verifyJWT({ body: { token, issuer: "https://other.test" } })).payload).toBeNull();
    for (const bad of ["", "a.b.c", "x".repeat(10_000), `${token}x`, token.split(".").slice(0, 2).join(".")]) {
      expect((await api.verifyJWT({ body: { token: bad } })).payload).toBeNull();
    }
    const other = await api.signJWT({
      body: { payload: { sub: "s1" }, overrideOptions: { jwt: { issuer: "https://other.test", expirationTime: "2m" } } },
    });
    const verified = await api.verifyJWT({ body: { token: other.token, issuer: "https://other.test" } });
    expect(verified.payload!.exp).toBeGreaterThan(Date.now() / 1000 + 100);
    expect(verified.payload!.exp).toBeLessThanOrEqual(Date.now() / 1000 + 121);
    // A token without `sub` is refused by verifyJWT (reference rule).
    const noSub = await api.signJWT({ body: { payload: { scope: "x" } } });
    expect((await api.verifyJWT({ body: { token: noSub.token } })).payload).toBeNull();
  });
});
