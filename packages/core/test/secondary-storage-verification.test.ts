import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import {
  incrementStoredCounter,
  parseStoredJSON,
  ttlSeconds,
  type LatchkeyOptions,
  type LogLevel,
} from "../src/index.ts";
import { testInstance } from "./support/instance.ts";
import { mapStorage } from "./support/map-storage.ts";

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);
const sha256url = (text: string) => createHash("sha256").update(text).digest("base64url");

function instance(options: Partial<LatchkeyOptions> = {}, storageOptions: { atomic?: boolean } = {}) {
  const kv = mapStorage(storageOptions);
  const logs: Array<{ level: LogLevel; message: string }> = [];
  const t = testInstance({
    secondaryStorage: kv.storage,
    logger: { level: "debug", log: (level, message) => void logs.push({ level, message }) },
    ...options,
  });
  return { ...t, kv, logs, ia: t.auth.$context.internalAdapter };
}

describe("verification values in secondary storage", () => {
  it("stores verification:<identifier> as JSON with ISO dates until expiresAt; no row", async () => {
    const t = instance();
    const expiresAt = inMinutes(10);
    const created = await t.ia.createVerificationValue({
      identifier: "reset-password:abc",
      value: "user-1",
      expiresAt,
    });
    expect(created).toMatchObject({ identifier: "reset-password:abc", value: "user-1", expiresAt });
    expect(t.kv.json("verification:reset-password:abc")).toMatchObject({
      identifier: "reset-password:abc",
      value: "user-1",
      expiresAt: expiresAt.toISOString(),
    });
    expect(t.kv.ttl("verification:reset-password:abc")).toBeGreaterThanOrEqual(598);
    expect(t.count("verification")).toBe(0);
    const found = await t.ia.findVerificationValue("reset-password:abc");
    expect(found?.expiresAt).toEqual(expiresAt);
    expect(found?.createdAt).toBeInstanceOf(Date);
  });

  it("consumes once: of 20 concurrent consumers exactly one gets the value (getAndDelete)", async () => {
    const t = instance();
    await t.ia.createVerificationValue({ identifier: "otp:x", value: "123456", expiresAt: inMinutes(5) });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.ia.consumeVerificationValue("otp:x")),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(t.kv.has("verification:otp:x")).toBe(false);
    expect(await t.ia.findVerificationValue("otp:x")).toBeNull();
  });

  it("without getAndDelete/increment: the non-atomic path works and warns exactly once", async () => {
    const t = instance({}, { atomic: false });
    for (const id of ["a", "b", "c"]) {
      await t.ia.createVerificationValue({ identifier: id, value: id, expiresAt: inMinutes(5) });
      expect((await t.ia.consumeVerificationValue(id))?.value).toBe(id);
      expect(await t.ia.consumeVerificationValue(id)).toBeNull();
    }
    expect(await incrementStoredCounter(t.kv.storage, "1.2.3.4|/x", 10, t.auth.$context.logger)).toBe(1);
    expect(await incrementStoredCounter(t.kv.storage, "1.2.3.4|/x", 10, t.auth.$context.logger)).toBe(2);
    const warnings = t.logs.filter((l) => l.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain("getAndDelete(key) and increment(key, ttl)");
  });

  it("an expired value is never returned, and a past expiry is never stored", async () => {
    const t = instance();
    await t.ia.createVerificationValue({
      identifier: "old",
      value: "v",
      expiresAt: new Date(Date.now() - 1000),
    });
    expect(t.kv.has("verification:old")).toBe(false);
    const now = new Date().toISOString();
    await t.kv.raw(
      "verification:stale",
      JSON.stringify({
        identifier: "stale",
        value: "v",
        expiresAt: new Date(Date.now() - 1).toISOString(),
        createdAt: now,
        updatedAt: now,
      }),
      60,
    );
    expect(await t.ia.findVerificationValue("stale")).toBeNull();
    expect(await t.ia.consumeVerificationValue("stale")).toBeNull();
    expect(t.kv.has("verification:stale")).toBe(false);
  });

  it("update and delete by identifier act on the stored value", async () => {
    const t = instance();
    await t.ia.createVerificationValue({ identifier: "state:s", value: "one", expiresAt: inMinutes(5) });
    const updated = await t.ia.updateVerificationByIdentifier("state:s", {
      value: "two",
      expiresAt: inMinutes(60),
    });
    expect(updated?.value).toBe("two");
    expect(t.kv.ttl("verification:state:s")).toBeGreaterThan(3500);
    expect((await t.ia.findVerificationValue("state:s"))?.value).toBe("two");
    await t.ia.deleteVerificationByIdentifier("state:s");
    expect(t.kv.has("verification:state:s")).toBe(false);
    expect(await t.ia.updateVerificationByIdentifier("state:s", { value: "three" })).toBeNull();
  });

  it("storeInDatabase: both stores; a consume clears both; a missing key falls back to the row", async () => {
    const t = instance({ verification: { storeInDatabase: true } });
    const created = await t.ia.createVerificationValue({
      identifier: "v:1",
      value: "x",
      expiresAt: inMinutes(5),
    });
    expect(t.count("verification")).toBe(1);
    expect((t.kv.json("verification:v:1") as { id: string }).id).toBe(created?.id);
    await t.kv.storage.delete("verification:v:1");
    expect((await t.ia.findVerificationValue("v:1"))?.id).toBe(created?.id);
    await t.ia.createVerificationValue({ identifier: "v:2", value: "y", expiresAt: inMinutes(5) });
    const results = await Promise.all(Array.from({ length: 10 }, () => t.ia.consumeVerificationValue("v:2")));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(t.kv.has("verification:v:2")).toBe(false);
    expect(t.count("verification")).toBe(1);
  });
});

describe("verification.storeIdentifier", () => {
  it('"hashed" stores SHA-256 base64url of the identifier (the reference hasher), in both stores', async () => {
    const t = instance({ verification: { storeInDatabase: true, storeIdentifier: "hashed" } });
    await t.ia.createVerificationValue({
      identifier: "reset-password:tok",
      value: "u",
      expiresAt: inMinutes(5),
    });
    const hashed = sha256url("reset-password:tok");
    expect(t.kv.has(`verification:${hashed}`)).toBe(true);
    expect(t.store.verification![0]!.identifier).toBe(hashed);
    expect(JSON.stringify(t.kv.keys())).not.toContain("tok");
    expect((await t.ia.consumeVerificationValue("reset-password:tok"))?.value).toBe("u");
    expect(t.count("verification")).toBe(0);
  });

  it("finds a value stored plain before hashing was turned on", async () => {
    const t = instance({ verification: { storeIdentifier: "hashed" } });
    const now = new Date().toISOString();
    await t.kv.raw(
      "verification:legacy",
      JSON.stringify({
        identifier: "legacy",
        value: "v",
        expiresAt: inMinutes(5).toISOString(),
        createdAt: now,
        updatedAt: now,
      }),
      300,
    );
    expect((await t.ia.findVerificationValue("legacy"))?.value).toBe("v");
    expect((await t.ia.consumeVerificationValue("legacy"))?.value).toBe("v");
    expect(t.kv.keys()).toEqual([]);
  });

  it("per-prefix overrides and a custom hash", async () => {
    const t = instance({
      verification: {
        storeIdentifier: {
          default: "plain",
          overrides: { "otp:": "hashed", "custom:": { hash: async (id) => `h(${id})` } },
        },
      },
    });
    for (const id of ["otp:1", "custom:2", "plain:3"])
      await t.ia.createVerificationValue({ identifier: id, value: id, expiresAt: inMinutes(5) });
    expect(t.kv.keys().sort()).toEqual(
      [`verification:${sha256url("otp:1")}`, "verification:h(custom:2)", "verification:plain:3"].sort(),
    );
    for (const id of ["otp:1", "custom:2", "plain:3"])
      expect((await t.ia.findVerificationValue(id))?.value).toBe(id);
  });
});

describe("storage helpers", () => {
  it("ttlSeconds floors and never goes negative", () => {
    const now = 1_000_000;
    expect(ttlSeconds(now + 10_999, now)).toBe(10);
    expect(ttlSeconds(new Date(now - 5), now)).toBe(0);
    expect(ttlSeconds(new Date(now + 60_000).toISOString(), now)).toBe(60);
    expect(ttlSeconds("not a date", now)).toBe(0);
  });

  it("parseStoredJSON reads text or objects, and anything else as null", () => {
    expect(parseStoredJSON('{"a":1}')).toEqual({ a: 1 });
    expect(parseStoredJSON({ a: 1 })).toEqual({ a: 1 });
    for (const bad of [null, undefined, "", "{", "42", '"s"', 7]) expect(parseStoredJSON(bad)).toBeNull();
  });

  it("incrementStoredCounter (fallback) restarts a counter that is not a plain integer", async () => {
    const { storage, raw, ttl } = mapStorage({ atomic: false });
    await raw("k", JSON.stringify({ key: "k", count: 5, lastRequest: 1 }), 10);
    expect(await incrementStoredCounter(storage, "k", 30)).toBe(1);
    expect(await incrementStoredCounter(storage, "k", 30)).toBe(2);
    expect(ttl("k")).toBe(30);
  });
});

/** No secondary storage: verification rows in the (memory) database. */
function testInstanceWithIA() {
  const t = testInstance();
  return { ...t, ia: t.auth.$context.internalAdapter };
}

describe("consumeVerificationValue on database rows", () => {
  it("includeExpired hands an expired row back once (the OAuth state's error URL); still single use", async () => {
    const t = testInstanceWithIA();
    const stale = new Date(Date.now() + 1000);
    await t.ia.createVerificationValue({ identifier: "state:x", value: "v", expiresAt: stale });
    await t.ia.createVerificationValue({ identifier: "state:y", value: "v", expiresAt: stale });
    // Time passes: the rows are now expired (storage-only values are gone with their TTL instead).
    vi.useFakeTimers({ now: Date.now() + 5000, toFake: ["Date"] });
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => t.ia.consumeVerificationValue("state:x", { includeExpired: true })),
      );
      const got = results.filter(Boolean);
      expect(got).toHaveLength(1);
      expect(got[0]!.expiresAt).toEqual(stale);
      expect(await t.ia.consumeVerificationValue("state:x", { includeExpired: true })).toBeNull();
      // Without the option an expired row is consumed but not returned.
      expect(await t.ia.consumeVerificationValue("state:y")).toBeNull();
      expect(await t.ia.consumeVerificationValue("state:y", { includeExpired: true })).toBeNull();
      expect(t.count("verification")).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
