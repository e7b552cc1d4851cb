import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EncryptJWT, base64url, decodeProtectedHeader, jwtDecrypt } from "jose";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import {
  symmetricDecodeJWT,
  symmetricEncodeJWT,
  utf8Encode,
  type SecretConfig,
} from "../../src/crypto/index.js";
import { FIXED_TIME, REFERENCE_JWE, ROTATION, SECRET } from "./reference-vectors.js";

const now = FIXED_TIME / 1000;
const SESSION = "better-auth-session";
const ACCOUNT = "better-auth-account";

const rotated: SecretConfig = {
  current: { version: 2, value: ROTATION.v2 },
  all: new Map([
    [2, ROTATION.v2],
    [1, ROTATION.v1],
  ]),
  legacy: ROTATION.legacy,
};

describe("symmetricEncodeJWT / symmetricDecodeJWT", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(FIXED_TIME);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("decodes the reference's session-cache JWE", async () => {
    vi.setSystemTime(FIXED_TIME + 10_000);
    const payload = await symmetricDecodeJWT(REFERENCE_JWE.session, SECRET, SESSION);
    expect(payload).toMatchObject({ session: { token: "abc" }, updatedAt: 1, iat: now, exp: now + 300 });
    expect(payload?.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("writes the same protected header as the reference (alg, enc, RFC 7638 kid) for the same secret and salt", async () => {
    const ours = await symmetricEncodeJWT({ a: 1 }, SECRET, SESSION, 300);
    expect(ours.split(".")[0]).toBe(REFERENCE_JWE.session.split(".")[0]);
    expect(decodeProtectedHeader(ours)).toEqual({
      alg: "dir",
      enc: "A256CBC-HS512",
      kid: "2gfuK-4nzYOKZS75JQilUpf8F-Z0f4p0ERdZSPpOIHs",
    });
    // Compact JWE with "dir": empty encrypted-key segment (RFC 7516 §7.1).
    expect(ours.split(".")[1]).toBe("");
  });

  it("derives the key with HKDF-SHA256 (64 bytes, the reference's info string)", async () => {
    const key = hkdf(
      sha256,
      utf8Encode(SECRET),
      utf8Encode(SESSION),
      utf8Encode("BetterAuth.js Generated Encryption Key"),
      64,
    );
    const manual = await new EncryptJWT({ m: 1 })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setExpirationTime(now + 60)
      .encrypt(key);
    expect(await symmetricDecodeJWT(manual, SECRET, SESSION)).toMatchObject({ m: 1 });
  });

  it("round-trips with iat, exp and a random jti", async () => {
    const a = await symmetricEncodeJWT({ user: { id: "u1" } }, SECRET, SESSION, 120);
    const b = await symmetricEncodeJWT({ user: { id: "u1" } }, SECRET, SESSION, 120);
    const pa = await symmetricDecodeJWT(a, SECRET, SESSION);
    const pb = await symmetricDecodeJWT(b, SECRET, SESSION);
    expect(pa).toMatchObject({ user: { id: "u1" }, iat: now, exp: now + 120 });
    expect(pa?.jti).not.toBe(pb?.jti);
  });

  it("defaults to one hour", async () => {
    const token = await symmetricEncodeJWT({}, SECRET, SESSION);
    expect(await symmetricDecodeJWT(token, SECRET, SESSION)).toMatchObject({ exp: now + 3600 });
  });

  it("allows 15 s of clock skew past exp, no more", async () => {
    vi.setSystemTime(FIXED_TIME + 314_000);
    expect(await symmetricDecodeJWT(REFERENCE_JWE.session, SECRET, SESSION)).not.toBeNull();
    vi.setSystemTime(FIXED_TIME + 316_000);
    expect(await symmetricDecodeJWT(REFERENCE_JWE.session, SECRET, SESSION)).toBeNull();
  });

  it("rejects a wrong secret or salt", async () => {
    expect(await symmetricDecodeJWT(REFERENCE_JWE.session, `${SECRET}x`, SESSION)).toBeNull();
    expect(await symmetricDecodeJWT(REFERENCE_JWE.session, SECRET, ACCOUNT)).toBeNull();
  });

  it("rejects tampering in every segment", async () => {
    const parts = REFERENCE_JWE.session.split(".");
    for (const index of [0, 2, 3, 4]) {
      const copy = [...parts];
      const seg = copy[index]!;
      copy[index] = seg.slice(0, 5) + (seg[5] === "A" ? "B" : "A") + seg.slice(6);
      expect(await symmetricDecodeJWT(copy.join("."), SECRET, SESSION)).toBeNull();
    }
  });

  it.each(["", "garbage", "a.b.c.d.e", "eyJhbGciOiJIUzI1NiJ9.e30.sig"])(
    "returns null for malformed %j",
    async (token) => {
      expect(await symmetricDecodeJWT(token, SECRET, SESSION)).toBeNull();
    },
  );

  it("rejects a JWE using another content encryption", async () => {
    const key = hkdf(
      sha256,
      utf8Encode(SECRET),
      utf8Encode(SESSION),
      utf8Encode("BetterAuth.js Generated Encryption Key"),
      32,
    );
    const gcm = await new EncryptJWT({ m: 1 })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setExpirationTime(now + 60)
      .encrypt(key);
    expect(await symmetricDecodeJWT(gcm, SECRET, SESSION)).toBeNull();
  });

  // The codec is hand-written on Web Crypto; jose (the reference's library) is the oracle.
  describe("against jose", () => {
    const sessionKey = (): Uint8Array =>
      hkdf(
        sha256,
        utf8Encode(SECRET),
        utf8Encode(SESSION),
        utf8Encode("BetterAuth.js Generated Encryption Key"),
        64,
      );
    const joseToken = (
      claims: Record<string, unknown>,
      header: Record<string, unknown> = {},
    ): Promise<string> =>
      new EncryptJWT(claims)
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", ...header })
        .setExpirationTime(now + 60)
        .encrypt(sessionKey());

    it("jose decrypts what we encrypt, with the claims in jose's order", async () => {
      const ours = await symmetricEncodeJWT({ b: 1, iat: 5, a: [1] }, SECRET, SESSION, 60);
      const { payload, protectedHeader } = await jwtDecrypt(ours, sessionKey(), { clockTolerance: 15 });
      expect(Object.keys(payload)).toEqual(["b", "iat", "a", "exp", "jti"]);
      expect(payload).toMatchObject({ b: 1, iat: now, a: [1], exp: now + 60 });
      expect(protectedHeader).toEqual(decodeProtectedHeader(ours));
    });

    it("refuses what jose refuses: nbf ahead, non-numeric iat, replicated claims that differ", async () => {
      expect(await symmetricDecodeJWT(await joseToken({ nbf: now + 16 }), SECRET, SESSION)).toBeNull();
      expect(await symmetricDecodeJWT(await joseToken({ nbf: now + 15 }), SECRET, SESSION)).not.toBeNull();
      expect(await symmetricDecodeJWT(await joseToken({ iat: "0" }), SECRET, SESSION)).toBeNull();
      expect(
        await symmetricDecodeJWT(await joseToken({ iss: "a" }, { iss: "b" }), SECRET, SESSION),
      ).toBeNull();
      expect(
        await symmetricDecodeJWT(await joseToken({ iss: "a" }, { iss: "a" }), SECRET, SESSION),
      ).not.toBeNull();
      expect(
        await symmetricDecodeJWT(await joseToken({ aud: ["x"] }, { aud: ["y"] }), SECRET, SESSION),
      ).toBeNull();
    });

    it("refuses an encrypted-key segment, a short IV and a missing tag; an empty claims set is valid", async () => {
      const parts = (await joseToken({ m: 1 })).split(".");
      const withPart = (index: number, value: string): string =>
        parts.map((part, i) => (i === index ? value : part)).join(".");
      expect(await symmetricDecodeJWT(parts.join("."), SECRET, SESSION)).toMatchObject({ m: 1 });
      expect(await symmetricDecodeJWT(withPart(1, "AAAA"), SECRET, SESSION)).toBeNull();
      expect(await symmetricDecodeJWT(withPart(2, parts[2]!.slice(0, 16)), SECRET, SESSION)).toBeNull();
      expect(await symmetricDecodeJWT(withPart(4, ""), SECRET, SESSION)).toBeNull();
      const array = await new EncryptJWT({})
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .encrypt(sessionKey());
      expect(await symmetricDecodeJWT(array, SECRET, SESSION)).toEqual({});
    });
  });

  describe("with rotated secrets", () => {
    it("decodes the reference's token made under v1 when v2 is current (picked by kid)", async () => {
      expect(await symmetricDecodeJWT(REFERENCE_JWE.rotated, rotated, ACCOUNT)).toMatchObject({ account: 1 });
    });

    it("encodes with the current version", async () => {
      const token = await symmetricEncodeJWT({ v: 2 }, rotated, ACCOUNT, 60);
      expect(await symmetricDecodeJWT(token, ROTATION.v2, ACCOUNT)).toMatchObject({ v: 2 });
      expect(await symmetricDecodeJWT(token, ROTATION.v1, ACCOUNT)).toBeNull();
    });

    it("decodes tokens from the legacy secret", async () => {
      const token = await symmetricEncodeJWT({ legacy: true }, ROTATION.legacy, ACCOUNT, 60);
      expect(await symmetricDecodeJWT(token, rotated, ACCOUNT)).toMatchObject({ legacy: true });
    });

    it("rejects a kid no configured secret has", async () => {
      const token = await symmetricEncodeJWT({ x: 1 }, "retired-secret", ACCOUNT, 60);
      expect(await symmetricDecodeJWT(token, rotated, ACCOUNT)).toBeNull();
    });

    it("tries every secret for a token without kid", async () => {
      const key = hkdf(
        sha256,
        utf8Encode(ROTATION.v1),
        utf8Encode(ACCOUNT),
        utf8Encode("BetterAuth.js Generated Encryption Key"),
        64,
      );
      const noKid = await new EncryptJWT({ old: true })
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .setExpirationTime(now + 60)
        .encrypt(key);
      expect(await symmetricDecodeJWT(noKid, rotated, ACCOUNT)).toMatchObject({ old: true });
      expect(await symmetricDecodeJWT(noKid, ROTATION.v2, ACCOUNT)).toBeNull();
    });

    it("computes kid as the RFC 7638 thumbprint of the derived key", async () => {
      const key = hkdf(
        sha256,
        utf8Encode(ROTATION.v1),
        utf8Encode(ACCOUNT),
        utf8Encode("BetterAuth.js Generated Encryption Key"),
        64,
      );
      const members = JSON.stringify({ k: base64url.encode(key), kty: "oct" });
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8Encode(members)));
      expect(decodeProtectedHeader(REFERENCE_JWE.rotated).kid).toBe(base64url.encode(digest));
    });
  });
});
