import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { answer, ada, authorize, form, ISSUER, OPTIONS, pairPerTest, pkce, REDIRECT, register, type Registered } from "./support/oauth-provider.ts";
import { url, type Handler } from "./support/instances.ts";

/**
 * `private_key_jwt` (RFC 7523) and DPoP (RFC 9449) on `@latchkey/oauth-provider` beside the
 * reference's `oauthProvider()`, on one database: clients registered on one authenticate on the
 * other, and the deliberate differences (DIVERGENCES.md rows 126-141) are asserted on both sides.
 */
const pairWith = pairPerTest();
const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

async function assertion(key: CryptoKey, clientId: string, aud: string, alg: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: clientId, sub: clientId, aud, jti: crypto.randomUUID(), iat: now, exp: now + 60 })
    .setProtectedHeader({ alg, kid: "k" })
    .sign(key);
}

describe("oauth-provider: private_key_jwt on both sides", () => {
  it("a private_key_jwt client registered on either side authenticates on both at introspection", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const c = await register(p.reference, cookie, { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k" }] } });
    expect(c.client_secret).toBeUndefined();
    for (const side of [p.reference, p.latchkey]) {
      const res = await answer(
        await side(form("/oauth2/introspect", { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(privateKey, c.client_id, ISSUER, "ES256") })),
      );
      expect(res).toMatchObject({ status: 200, body: { active: false } });
    }
    // A client registered on Latchkey authenticates on the reference too.
    const onLatchkey = await register(p.latchkey, cookie, { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k" }] } });
    expect(onLatchkey.client_secret).toBeUndefined();
    const viaReference = await answer(
      await p.reference(form("/oauth2/introspect", { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(privateKey, onLatchkey.client_id, ISSUER, "ES256") })),
    );
    expect(viaReference).toMatchObject({ status: 200, body: { active: false } });
    // One assertion id, spent on the reference, is refused by Latchkey (shared oauthClientAssertion table).
    const once = await assertion(privateKey, c.client_id, `${ISSUER}/oauth2/introspect`, "ES256");
    const fields = { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: once };
    expect((await p.reference(form("/oauth2/introspect", fields))).status).toBe(200);
    expect(await answer(await p.latchkey(form("/oauth2/introspect", fields)))).toMatchObject({
      status: 400,
      body: { error: "invalid_client", error_description: "client assertion jti has already been used" },
    });
  });

  it("row 126: an assertion signed with alg Ed25519 (RFC 9864, what openid-client sends for an Ed25519 key) — the reference refuses it, Latchkey verifies it", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const { privateKey, publicKey } = await generateKeyPair("Ed25519");
    const c = await register(p.reference, cookie, { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k" }] } });
    const results = [];
    for (const side of [p.reference, p.latchkey]) {
      results.push(
        await answer(
          await side(form("/oauth2/introspect", { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(privateKey, c.client_id, ISSUER, "Ed25519") })),
        ),
      );
    }
    expect(results[0]).toMatchObject({ status: 400, body: { error: "invalid_client", error_description: "unsupported assertion signing algorithm: Ed25519" } });
    expect(results[1]).toMatchObject({ status: 200, body: { active: false } });
    // The same key with alg EdDSA works on both.
    for (const side of [p.reference, p.latchkey]) {
      const res = await answer(
        await side(form("/oauth2/introspect", { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(privateKey, c.client_id, ISSUER, "EdDSA") })),
      );
      expect(res).toMatchObject({ status: 200, body: { active: false } });
    }
  });
});

/** A DPoP proof (RFC 9449 §4.2) for a POST to `path`. */
async function dpopProof(key: { privateKey: CryptoKey; jwk: JWK }, path: string): Promise<string> {
  return new SignJWT({ htm: "POST", htu: url(path), jti: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000) })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.jwk })
    .sign(key.privateKey);
}

async function dpopKey(): Promise<{ privateKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  return { privateKey, jwk: await exportJWK(publicKey) };
}

/** Redeems a fresh authorization code of client `c` (authorized by `cookie`) on a side, with `proof`. */
function dpopRedeemer(cookie: string, c: Registered) {
  return async (side: Handler, proof: string) => {
    const { verifier, challenge } = await pkce();
    const code = await authorize(side, cookie, c.client_id, challenge);
    return answer(await side(withDpop(form("/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, c), proof)));
  };
}

function withDpop(request: Request, proof: string): Request {
  request.headers.set("dpop", proof);
  return request;
}

describe("oauth-provider: DPoP on both sides", () => {
  it("row 127: a confidential client refreshing with a new DPoP key — the reference refuses (it binds the refresh token), Latchkey binds only public clients' refresh tokens (RFC 9449 §5)", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const results = [];
    for (const side of [p.reference, p.latchkey]) {
      const first = await dpopKey();
      const { verifier, challenge } = await pkce();
      const code = await authorize(side, cookie, c.client_id, challenge);
      const issued = await side(
        withDpop(form("/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, c), await dpopProof(first, "/oauth2/token")),
      );
      const tokens = (await issued.json()) as { token_type: string; refresh_token: string };
      expect(tokens.token_type).toBe("DPoP");
      const next = await dpopKey();
      const refreshed = await answer(
        await side(withDpop(form("/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token }, c), await dpopProof(next, "/oauth2/token"))),
      );
      results.push(refreshed.status === 200 ? { status: 200, token_type: (refreshed.body as { token_type: string }).token_type } : refreshed);
    }
    expect(results[0]).toMatchObject({ status: 400, body: { error: "invalid_dpop_proof", error_description: "DPoP proof key does not match the bound token" } });
    expect(results[1]).toEqual({ status: 200, token_type: "DPoP" });
  });

  it("one DPoP proof is single use across the two: spent on either side, the other refuses it (one reservation row, the reference's 43-character id)", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const redeem = dpopRedeemer(cookie, c);
    const replayed = { status: 400, body: { error: "invalid_dpop_proof", error_description: "DPoP proof jti has already been used" } };
    for (const [first, second] of [
      [p.reference, p.latchkey],
      [p.latchkey, p.reference],
    ] as const) {
      const proof = await dpopProof(await dpopKey(), "/oauth2/token");
      expect((await redeem(first, proof)).status).toBe(200);
      expect(await redeem(second, proof)).toMatchObject(replayed);
    }
    const rows = p.db.prepare("select id from verification where identifier like 'dpop-proof:%'").all([]) as Array<{ id: string }>;
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("a public client's refresh token bound by the reference stays bound on Latchkey", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie, { token_endpoint_auth_method: "none" });
    const key = await dpopKey();
    const { verifier, challenge } = await pkce();
    const code = await authorize(p.reference, cookie, c.client_id, challenge);
    const publicForm = (fields: Record<string, string>) => form("/oauth2/token", { ...fields, client_id: c.client_id });
    const issued = await p.reference(
      withDpop(publicForm({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }), await dpopProof(key, "/oauth2/token")),
    );
    const tokens = (await issued.json()) as { refresh_token: string };
    const stolen = await answer(await p.latchkey(withDpop(publicForm({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }), await dpopProof(await dpopKey(), "/oauth2/token"))));
    expect(stolen).toMatchObject({ status: 400, body: { error: "invalid_dpop_proof", error_description: "DPoP proof key does not match the bound token" } });
    const rightful = await p.latchkey(withDpop(publicForm({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }), await dpopProof(key, "/oauth2/token")));
    expect(rightful.status).toBe(200);
  });

  it("row 128: a DPoP-bound token at userinfo under the Bearer scheme — both refuse with 401 invalid_token, only Latchkey sends the RFC 9449 §7.1 DPoP challenge", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const challenges = [];
    for (const side of [p.reference, p.latchkey]) {
      const { verifier, challenge } = await pkce();
      const code = await authorize(side, cookie, c.client_id, challenge);
      const issued = await side(
        withDpop(form("/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, c), await dpopProof(await dpopKey(), "/oauth2/token")),
      );
      const { access_token } = (await issued.json()) as { access_token: string };
      const res = await side(new Request(url("/oauth2/userinfo"), { headers: { authorization: `Bearer ${access_token}` } }));
      const body = (await res.json()) as { error: string; error_description: string };
      challenges.push({ status: res.status, error: body.error, description: body.error_description, challenge: res.headers.get("www-authenticate") });
    }
    const description = "DPoP-bound access token requires the DPoP authorization scheme";
    expect(challenges[0]).toEqual({ status: 401, error: "invalid_token", description, challenge: null });
    expect(challenges[1]).toEqual({
      status: 401,
      error: "invalid_token",
      description,
      challenge: `DPoP error="invalid_token", error_description="${description}", algs="EdDSA ES256 ES512 PS256 RS256"`,
    });
  });
});

/** A secondary storage both sides share, in memory, with Redis' atomic `increment` (INCR + TTL on first use). */
function memoryStorage() {
  const values = new Map<string, { value: string; until: number }>();
  const live = (key: string) => {
    const entry = values.get(key);
    if (entry && entry.until <= Date.now()) values.delete(key);
    return values.get(key);
  };
  return {
    keys: () => [...values.keys()],
    get: async (key: string) => live(key)?.value ?? null,
    getAndDelete: async (key: string) => {
      const value = live(key)?.value ?? null;
      values.delete(key);
      return value;
    },
    set: async (key: string, value: string, ttl?: number) => void values.set(key, { value, until: ttl ? Date.now() + ttl * 1000 : Infinity }),
    delete: async (key: string) => void values.delete(key),
    increment: async (key: string, ttl: number) => {
      const next = Number(live(key)?.value ?? 0) + 1;
      values.set(key, { value: String(next), until: live(key)?.until ?? Date.now() + ttl * 1000 });
      return next;
    },
  };
}

describe("oauth-provider: DPoP with verification values in secondary storage only", () => {
  it("row 142: the reference refuses every DPoP proof (it reserves proofs in the verification table it does not use); Latchkey counts each proof once in the store", async () => {
    const storage = memoryStorage();
    const shared = { secondaryStorage: storage, session: { storeSessionInDatabase: true } };
    const { createPair } = await import("./support/instances.ts");
    const { oauthProvider: referenceOAuthProvider } = await import("@better-auth/oauth-provider");
    const { jwt: referenceJwt } = await import("better-auth/plugins");
    const { jwt } = await import("@latchkey/jwt");
    const { oauthProvider } = await import("@latchkey/oauth-provider");
    const p = await createPair({
      reference: { ...shared, plugins: [referenceJwt(), referenceOAuthProvider(OPTIONS as Parameters<typeof referenceOAuthProvider>[0])] },
      latchkey: { ...shared, plugins: [jwt(), oauthProvider(OPTIONS)] },
    });
    try {
      const { cookie } = await signUp(p.reference, ada);
      const c = await register(p.reference, cookie);
      const redeem = dpopRedeemer(cookie, c);
      // The reference throws "reserveVerificationValue requires database-backed verification storage".
      const refused = await redeem(p.reference, await dpopProof(await dpopKey(), "/oauth2/token"));
      expect(refused.status).toBe(500);
      const proof = await dpopProof(await dpopKey(), "/oauth2/token");
      const first = await redeem(p.latchkey, proof);
      expect([first.status, (first.body as { token_type?: string }).token_type]).toEqual([200, "DPoP"]);
      expect(await redeem(p.latchkey, proof)).toMatchObject({ status: 400, body: { error: "invalid_dpop_proof", error_description: "DPoP proof jti has already been used" } });
      // Neither side has a verification table here: Latchkey's proof is a counter in the store.
      expect(p.db.prepare("select count(*) as n from sqlite_master where name = 'verification'").all([])).toEqual([{ n: 0 }]);
      expect(storage.keys().filter((key) => key.startsWith("dpop-proof:"))).toHaveLength(1);
    } finally {
      p.close();
    }
  });
});
