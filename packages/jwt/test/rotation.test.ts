import { client, TEST_SECRET, type TestAuth } from "@latchkey/test-support";
import { decodeProtectedHeader, type JSONWebKeySet } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { newKeyRow } from "../src/key-pair.ts";
import { resolveJwtOptions, type JwtOptions } from "../src/options.ts";
import type { JwkRow } from "../src/index.ts";
import { jwtInstance, signedIn, verifyWithServedKeys } from "./instance.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});
async function instance(options: JwtOptions = {}): Promise<TestAuth> {
  const t = await jwtInstance(options);
  open.push(t);
  return t;
}
const DAY = 86_400_000;
const rows = (t: TestAuth) => t.auth.$context.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });

/** Stores a key as another deployment (or an earlier day) would have, aged by `createdAgo` ms. */
async function storeKey(
  t: TestAuth,
  options: JwtOptions,
  { createdAgo, expiresIn, alg }: { createdAgo: number; expiresIn?: number; alg?: string | null },
): Promise<JwkRow> {
  const resolved = resolveJwtOptions(options);
  const data = await newKeyRow(resolved.keyPairConfig, resolved, TEST_SECRET, new Date(Date.now() - createdAgo));
  const row = { ...data, ...(expiresIn !== undefined ? { expiresAt: new Date(Date.now() + expiresIn) } : {}) };
  if (alg !== undefined) Object.assign(row, { alg });
  return (await t.auth.$context.internalAdapter.create<JwkRow>("jwks", row))!;
}

const kidOf = (token: string): string | undefined => decodeProtectedHeader(token).kid;

describe("rotation", () => {
  it("rotationInterval stamps expiresAt = createdAt + interval on new keys", async () => {
    const t = await instance({ jwks: { rotationInterval: 3600 } });
    await client(t.auth).get("/jwks");
    const [row] = await rows(t);
    expect(row!.expiresAt!.getTime() - row!.createdAt.getTime()).toBeGreaterThanOrEqual(3_599_000);
    expect(row!.expiresAt!.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(3_601_000);
  });

  it("an expired key stops signing (a new one is made) but is served through the grace period, then dropped", async () => {
    const options = { jwks: { rotationInterval: 3600, gracePeriod: 7 * 86_400 } };
    const t = await instance(options);
    const inGrace = await storeKey(t, options, { createdAgo: 2 * DAY, expiresIn: -DAY });
    const pastGrace = await storeKey(t, options, { createdAgo: 20 * DAY, expiresIn: -10 * DAY });
    const c = await signedIn(t);
    const { token } = (await c.get("/token")).json as { token: string };
    expect([inGrace.id, pastGrace.id]).not.toContain(kidOf(token));
    expect(await rows(t)).toHaveLength(3);
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    expect(keys.keys.map((k) => k.kid).sort()).toEqual([inGrace.id, kidOf(token)].sort());
    await verifyWithServedKeys(keys, token);
  });

  it("signs with the newest live key of the primary algorithm, even when a newer key of another exists", async () => {
    const t = await instance();
    const primary = await storeKey(t, {}, { createdAgo: 2 * DAY });
    const newerPrimary = await storeKey(t, {}, { createdAgo: DAY });
    await storeKey(t, { jwks: { keyPairConfig: { alg: "ES256" } } }, { createdAgo: 1000 });
    const c = await signedIn(t);
    const { token } = (await c.get("/token")).json as { token: string };
    expect(kidOf(token)).toBe(newerPrimary.id);
    expect(kidOf(token)).not.toBe(primary.id);
    // All three keys are served, each with its own alg.
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    expect(keys.keys.map((k) => k.alg).sort()).toEqual(["ES256", "EdDSA", "EdDSA"]);
    await verifyWithServedKeys(keys, token);
  });

  it("a legacy row without alg counts as the configured algorithm", async () => {
    const t = await instance();
    const legacy = await storeKey(t, {}, { createdAgo: DAY, alg: null });
    const c = await signedIn(t);
    const { token } = (await c.get("/token")).json as { token: string };
    expect(decodeProtectedHeader(token)).toEqual({ alg: "EdDSA", kid: legacy.id });
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    expect(keys.keys).toEqual([expect.objectContaining({ alg: "EdDSA", kid: legacy.id })]);
  });

  it("a key encrypted under another secret is a 500 that names neither secret nor key", async () => {
    const t = await instance();
    const resolved = resolveJwtOptions();
    const data = await newKeyRow(resolved.keyPairConfig, resolved, "some-other-secret-0123456789-abcdefghij");
    await t.auth.$context.internalAdapter.create("jwks", { ...data });
    const c = await signedIn(t);
    const res = await c.get("/token");
    expect(res.status).toBe(500);
    expect(res.text).not.toContain(TEST_SECRET);
    expect(res.text).not.toContain(JSON.parse(data.privateKey) as string);
  });
});
