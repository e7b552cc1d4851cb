import { client, TEST_BASE_URL, type TestAuth } from "@latchkey/test-support";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JwkRow, JwtOptions, SigningConfig } from "../src/index.ts";
import { jwtApi, probedInstance, signedIn } from "./instance.ts";
import { remoteKey, startKeyServer, type KeyServer, type RemoteKey } from "./key-server.ts";

let open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.map((x) => x.close()));
  open = [];
});

interface Setup {
  t: TestAuth;
  server: KeyServer;
  key: RemoteKey;
  calls: Array<{ payload: JWTPayload; header?: Record<string, unknown>; config?: SigningConfig }>;
}

/** An instance whose tokens are signed by a key only the test holds and published on a local server. */
async function remoteSetup(extra: JwtOptions = {}, path = "/jwks"): Promise<Setup> {
  const key = await remoteKey("kms-1");
  const server = await startKeyServer([key.publicJwk]);
  open.push(server);
  const calls: Setup["calls"] = [];
  const t = await probedInstance({
    ...extra,
    jwks: { keyPairConfig: { alg: "ES256" }, remoteUrl: `${server.origin}${path}`, ...extra.jwks },
    jwt: {
      ...extra.jwt,
      sign: (payload, header, config) => {
        calls.push({ payload, header, config });
        return key.sign(payload, header);
      },
    },
  });
  open.push(t);
  return { t, server, key, calls };
}
const rows = (t: TestAuth) => t.auth.$context.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });

describe("remote signing (jwt.sign, jwks.remoteUrl)", () => {
  it("/token and set-auth-jwt are signed remotely with the full payload; /jwks is off; nothing is stored", async () => {
    const { t, server, key, calls } = await remoteSetup();
    const c = await signedIn(t);
    expect((await c.get("/jwks")).status).toBe(404);
    const { token } = (await c.get("/token")).json as { token: string };
    expect(decodeProtectedHeader(token)).toEqual({ alg: "ES256", kid: key.kid });
    const { payload } = await jwtVerify(token, createLocalJWKSet({ keys: server.keys }), {
      issuer: TEST_BASE_URL,
      audience: TEST_BASE_URL,
    });
    expect(payload).toMatchObject({ email: "ada@example.com", iss: TEST_BASE_URL, aud: TEST_BASE_URL });
    // The function receives every claim already set: iat, exp (15 min), iss, aud, sub.
    const sent = calls[0]!.payload;
    expect(sent.exp! - sent.iat!).toBe(900);
    expect(sent.sub).toBe(payload.sub);
    const session = await c.get("/get-session");
    expect(session.headers.get("set-auth-jwt")).toBeTruthy();
    expect(await rows(t)).toHaveLength(0);
  });

  it("the signer service passes the caller's header and key pin to jwt.sign and advertises the remote URL", async () => {
    const { t, server, calls } = await remoteSetup();
    const res = await client(t.auth).post("/probe/sign", {
      payload: { sub: "client-1" },
      options: { header: { typ: "logout+jwt" }, signingAlgorithm: "ES256", signingKeyId: "kms-1", audience: "rp" },
    });
    const { token } = res.json as { token: string };
    expect(decodeProtectedHeader(token).typ).toBe("logout+jwt");
    expect(calls[0]).toMatchObject({
      header: { typ: "logout+jwt" },
      config: { signingAlgorithm: "ES256", signingKeyId: "kms-1" },
      payload: { sub: "client-1", aud: "rp", iss: TEST_BASE_URL },
    });
    const probe = await client(t.auth).post("/probe/verify", { token: "x" });
    expect((probe.json as { jwksUri: string }).jwksUri).toBe(server.url);
  });

  it("verifyJWT reads the remote set once (bounded fetch, cached) and refuses other keys", async () => {
    const { t, server } = await remoteSetup();
    const api = jwtApi(t);
    const { token } = await api.signJWT({ body: { payload: { sub: "u1" } } });
    const results = await Promise.all(Array.from({ length: 5 }, () => api.verifyJWT({ body: { token } })));
    for (const r of results) expect(r.payload).toMatchObject({ sub: "u1", iss: TEST_BASE_URL });
    expect(server.hits).toBe(1);
    // A key the set does not hold (same kid even): refused. Its kid is known, so no re-fetch storm.
    const stranger = await remoteKey("kms-1");
    const forged = await stranger.sign({ sub: "u1", iss: TEST_BASE_URL, aud: TEST_BASE_URL, exp: 4_000_000_000 });
    expect((await api.verifyJWT({ body: { token: forged } })).payload).toBeNull();
    const unknownKid = await (await remoteKey("other")).sign({ sub: "u1", iss: TEST_BASE_URL, aud: TEST_BASE_URL, exp: 4_000_000_000 });
    expect((await api.verifyJWT({ body: { token: unknownKid } })).payload).toBeNull();
    // Within the 30 s cool-down an unknown kid does not trigger another fetch.
    expect(server.hits).toBe(1);
    // Wrong issuer: refused.
    expect((await api.verifyJWT({ body: { token, issuer: "https://other.test" } })).payload).toBeNull();
  });

  it("a key published later verifies once the 30 s cool-down has passed; the set is re-read after 10 minutes", async () => {
    const { t, server } = await remoteSetup();
    const api = jwtApi(t);
    const { token } = await api.signJWT({ body: { payload: { sub: "u1" } } });
    expect((await api.verifyJWT({ body: { token } })).payload).not.toBeNull();
    const rotated = await remoteKey("kms-2");
    const claims = { sub: "u2", iss: TEST_BASE_URL, aud: TEST_BASE_URL, exp: 4_000_000_000 };
    const next = await rotated.sign(claims);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      server.keys = [...server.keys, rotated.publicJwk];
      expect((await api.verifyJWT({ body: { token: next } })).payload).toBeNull();
      expect(server.hits).toBe(1);
      vi.setSystemTime(Date.now() + 31_000);
      expect((await api.verifyJWT({ body: { token: next } })).payload).toMatchObject({ sub: "u2" });
      expect(server.hits).toBe(2);
      // A key withdrawn from the set stops verifying once the cached set is older than 10 minutes.
      server.keys = [rotated.publicJwk];
      vi.setSystemTime(Date.now() + 601_000);
      expect((await api.verifyJWT({ body: { token } })).payload).toBeNull();
      expect(server.hits).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a key set behind a redirect or an error answer verifies nothing, and never throws", async () => {
    for (const path of ["/redirect", "/broken"]) {
      const { t } = await remoteSetup({}, path);
      const api = jwtApi(t);
      const { token } = await api.signJWT({ body: { payload: { sub: "u1" } } });
      expect((await api.verifyJWT({ body: { token } })).payload).toBeNull();
    }
  });

  it("remoteUrl without jwt.sign: local keys sign, the remote set verifies, /jwks is 404", async () => {
    const server = await startKeyServer([]);
    open.push(server);
    const t = await probedInstance({ jwks: { keyPairConfig: { alg: "EdDSA" }, remoteUrl: server.url } });
    open.push(t);
    const api = jwtApi(t);
    expect((await client(t.auth).get("/jwks")).status).toBe(404);
    const { token } = await api.signJWT({ body: { payload: { sub: "u1" } } });
    expect(await rows(t)).toHaveLength(1);
    // Not published yet: the operator copies the public key to the remote set.
    expect((await api.verifyJWT({ body: { token } })).payload).toBeNull();
    const [row] = await rows(t);
    server.keys = [{ ...JSON.parse(row!.publicKey), kid: row!.id, alg: "EdDSA" }];
    // The unknown kid re-fetches only after the cool-down; another node (its own database,
    // so only the remote set can vouch for the token) reads the set afresh.
    const fresh = await probedInstance({ jwks: { keyPairConfig: { alg: "EdDSA" }, remoteUrl: server.url } });
    open.push(fresh);
    expect(await rows(fresh)).toHaveLength(0);
    expect((await jwtApi(fresh).verifyJWT({ body: { token } })).payload).toMatchObject({ sub: "u1" });
  });
});
