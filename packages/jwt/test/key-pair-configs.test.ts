import { client, type TestAuth } from "@latchkey/test-support";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JwkRow } from "../src/index.ts";
import { KEY_CACHE_TTL_MS } from "../src/key-cache.ts";
import { probedInstance, type DatabaseKind } from "./instance.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});
const rows = (t: TestAuth) => t.auth.$context.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });
const extra = { jwks: { keyPairConfigs: [{ alg: "ES256" }, { alg: "RS256", modulusLength: 2048 }] } } as const;

async function sign(t: TestAuth, options: Record<string, unknown> = {}, payload: Record<string, unknown> = { sub: "s1" }) {
  const res = await client(t.auth).post("/probe/sign", { payload, options });
  expect(res.status).toBe(200);
  return res.json as { token?: string; error?: string };
}
const header = (token: string | undefined) => decodeProtectedHeader(token!);

describe("jwks.keyPairConfigs and signing pins", () => {
  it("a pinned algorithm makes its key on first use, reuses it, and /jwks lists every live key", async () => {
    const t = await probedInstance(extra);
    open.push(t);
    expect(await rows(t)).toHaveLength(0);
    const first = await sign(t, { signingAlgorithm: "ES256" });
    expect(header(first.token).alg).toBe("ES256");
    // Only the pinned algorithm's key is made: no primary key as a side effect.
    expect((await rows(t)).map((r) => r.alg)).toEqual(["ES256"]);
    const second = await sign(t, { signingAlgorithm: "ES256" });
    expect(header(second.token).kid).toBe(header(first.token).kid);
    // Reference order for unpinned tokens: the newest live key of the primary algorithm,
    // else the newest live key; with only the ES256 key, that one.
    expect(header((await sign(t)).token).kid).toBe(header(first.token).kid);
    // Pinning the primary algorithm makes its key; unpinned tokens then use it.
    const primary = await sign(t, { signingAlgorithm: "EdDSA" });
    expect(header(primary.token).alg).toBe("EdDSA");
    const unpinned = await sign(t);
    expect(header(unpinned.token).kid).toBe(header(primary.token).kid);
    const rsa = await sign(t, { signingAlgorithm: "RS256" });
    expect(header(rsa.token).alg).toBe("RS256");
    const keys = (await client(t.auth).get("/jwks")).json as JSONWebKeySet;
    expect(keys.keys.map((k) => k.alg).sort()).toEqual(["ES256", "EdDSA", "RS256"]);
    for (const token of [first.token, unpinned.token, rsa.token]) {
      const { payload } = await jwtVerify(token!, createLocalJWKSet(keys), { audience: "http://localhost:3000" });
      expect(payload.sub).toBe("s1");
    }
  });

  it("an algorithm in neither config is a descriptive error, and nothing is written", async () => {
    const t = await probedInstance({ jwks: { keyPairConfigs: [{ alg: "ES256" }] } });
    open.push(t);
    const { error } = await sign(t, { signingAlgorithm: "PS256" });
    expect(error).toMatch(/no key with alg "PS256"/);
    expect(error).toMatch(/keyPairConfig\.alg "EdDSA"/);
    expect(error).toMatch(/keyPairConfigs \(ES256\)/);
    expect(await rows(t)).toHaveLength(0);
  });

  it("signingKeyId signs with that key; unknown, mismatched or expired kids are refused", async () => {
    const t = await probedInstance(extra);
    open.push(t);
    const es = header((await sign(t, { signingAlgorithm: "ES256" })).token);
    const ed = header((await sign(t, { signingAlgorithm: "EdDSA" })).token);
    // Pinning the older ES256 key by id, although EdDSA is newer and primary.
    expect(header((await sign(t, { signingKeyId: es.kid })).token)).toMatchObject({ kid: es.kid, alg: "ES256" });
    expect(header((await sign(t, { signingKeyId: es.kid, signingAlgorithm: "ES256" })).token).kid).toBe(es.kid);
    expect((await sign(t, { signingKeyId: "nope" })).error).toMatch(/signingKeyId "nope" is not in the key set/);
    expect((await sign(t, { signingKeyId: ed.kid, signingAlgorithm: "ES256" })).error).toMatch(
      /has alg "EdDSA" but signingAlgorithm is "ES256"/,
    );
    // The key is expired in the table (by another node, say): seen once the keys held in memory
    // are older than KEY_CACHE_TTL_MS.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await t.auth.$context.adapter.update({
        model: "jwks",
        where: [{ field: "id", value: es.kid! }],
        update: { expiresAt: new Date(Date.now() - 1000) },
      });
      vi.setSystemTime(Date.now() + KEY_CACHE_TTL_MS + 1000);
      const before = (await rows(t)).length;
      expect((await sign(t, { signingKeyId: es.kid })).error).toMatch(/has expired/);
      // A pinned algorithm whose only key expired gets a new key (it is configured).
      const fresh = header((await sign(t, { signingAlgorithm: "ES256" })).token);
      expect(fresh.kid).not.toBe(es.kid);
      expect(await rows(t)).toHaveLength(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the payload's own claims and the pin work together with the header override", async () => {
    const t = await probedInstance(extra);
    open.push(t);
    const { token } = await sign(t, { signingAlgorithm: "ES256", header: { typ: "at+jwt" }, audience: "api" }, { sub: "x" });
    expect(header(token)).toMatchObject({ alg: "ES256", typ: "at+jwt" });
    const keys = (await client(t.auth).get("/jwks")).json as JSONWebKeySet;
    await jwtVerify(token!, createLocalJWKSet(keys), { audience: "api", typ: "at+jwt" });
  });
});

describe.each(["sqlite", "postgres", "mysql"] as DatabaseKind[])("first parallel pinned signs on %s", (db) => {
  it("20 parallel signs pinning a new algorithm make one key of it, all tokens verify", async () => {
    const t = await probedInstance(extra, db);
    open.push(t);
    const c = client(t.auth);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        c.post("/probe/sign", { payload: { sub: `u${i}` }, options: { signingAlgorithm: i % 2 ? "ES256" : "EdDSA" } }),
      ),
    );
    const tokens = answers.map((a) => (a.json as { token: string }).token);
    expect(tokens.every(Boolean)).toBe(true);
    const stored = await rows(t);
    // One process: one key per algorithm, not one per request.
    expect(stored.map((r) => r.alg).sort()).toEqual(["ES256", "EdDSA"]);
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    for (const [i, token] of tokens.entries()) {
      expect(header(token).alg).toBe(i % 2 ? "ES256" : "EdDSA");
      await jwtVerify(token, createLocalJWKSet(keys), { audience: "http://localhost:3000" });
    }
  });
});
