import type { TestAuth } from "@latchkey/test-support";
import { decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KEY_CACHE_TTL_MS } from "../src/key-cache.ts";
import { counted } from "./counted-keys.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.map((t) => t.close()));
  open = [];
});

const kidOf = (token: string | undefined): string | undefined => decodeProtectedHeader(token!).kid;

describe("signing and verification keys are held in memory", () => {
  it("signing and verifying read the key set once, not per request", async () => {
    const { counter, sign, verify } = await counted(open);
    const token = await sign();
    const afterFirst = counter.reads;
    for (let i = 0; i < 5; i += 1) {
      expect(kidOf(await sign())).toBe(kidOf(token));
      expect(await verify(token)).toMatchObject({ sub: "s1" });
    }
    expect(counter.reads).toBe(afterFirst);
  });

  it("a token signed by a key another node made since verifies at once: an unknown kid reads the set again", async () => {
    const { counter, sign, verify, foreignKey } = await counted(open);
    await sign();
    const before = counter.reads;
    const { token } = await foreignKey("node-b-key");
    expect(await verify(token)).toMatchObject({ sub: "s2" });
    expect(counter.reads).toBe(before + 1);
    // Now in memory: no more reads for it.
    expect(await verify(token)).toMatchObject({ sub: "s2" });
    expect(counter.reads).toBe(before + 1);
  });

  it("concurrent verifications of an unknown kid share one read", async () => {
    const { counter, sign, verify } = await counted(open);
    await sign();
    const before = counter.reads;
    const forged = `${Buffer.from(JSON.stringify({ alg: "EdDSA", kid: "nobody" })).toString("base64url")}.e30.c2ln`;
    expect(await Promise.all(Array.from({ length: 8 }, () => verify(forged)))).toEqual(Array(8).fill(null));
    expect(counter.reads - before).toBeLessThanOrEqual(2);
  });

  it("a newer key another node stored is adopted for signing within KEY_CACHE_TTL_MS; a removed key stops verifying", async () => {
    const { stored, sign, verify, foreignKey } = await counted(open);
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = await sign();
    const { row } = await foreignKey("node-b-newer");
    // Held in memory: the key this process knows still signs (it is live and verifies everywhere).
    expect(kidOf(await sign())).toBe(kidOf(first));
    vi.setSystemTime(Date.now() + KEY_CACHE_TTL_MS + 1000);
    expect(kidOf(await sign())).toBe(row.id);
    // The first key is removed from the store (a clean-up elsewhere): refused once the copy ages out.
    stored.splice(stored.findIndex((candidate) => candidate.id === kidOf(first)), 1);
    vi.setSystemTime(Date.now() + KEY_CACHE_TTL_MS + 1000);
    expect(await verify(first)).toBeNull();
  });

  it("when the key in memory expires, the set is read again before a new key is made", async () => {
    const { stored, sign, foreignKey, counter } = await counted(open);
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const first = await sign();
    stored[0]!.expiresAt = new Date(start + KEY_CACHE_TTL_MS + 10_000);
    // The copy ages out and is read again with the expiry; the key still signs.
    vi.setSystemTime(start + KEY_CACHE_TTL_MS + 1000);
    expect(kidOf(await sign())).toBe(kidOf(first));
    // Another node rotates in a key; ours expires while the copy is still young.
    const { row } = await foreignKey("node-b-rotated");
    vi.setSystemTime(start + KEY_CACHE_TTL_MS + 11_000);
    const reads = counter.reads;
    expect(kidOf(await sign())).toBe(row.id);
    expect(counter.reads).toBe(reads + 1);
    expect(stored).toHaveLength(2);
  });
});
