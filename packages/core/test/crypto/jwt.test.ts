import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SignJWT, base64url, decodeProtectedHeader, jwtVerify } from "jose";
import { signJWT, utf8Encode, verifyJWT } from "../../src/crypto/index.js";
import { verifyHS256 } from "../../src/crypto/jwt.js";
import { FIXED_TIME, REFERENCE_JWT, SECRET } from "./reference-vectors.js";

const now = FIXED_TIME / 1000;

describe("signJWT / verifyJWT", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(FIXED_TIME);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("produces the reference's token byte for byte at the same clock", async () => {
    expect(await signJWT(REFERENCE_JWT.payload, SECRET, 3600)).toBe(REFERENCE_JWT.token);
  });

  it('uses the protected header exactly {"alg":"HS256"} and appends iat, exp', async () => {
    const token = await signJWT({ a: 1 }, SECRET);
    const [header, claims] = token.split(".") as [string, string];
    expect(new TextDecoder().decode(base64url.decode(header))).toBe('{"alg":"HS256"}');
    expect(new TextDecoder().decode(base64url.decode(claims))).toBe(
      `{"a":1,"iat":${now},"exp":${now + 3600}}`,
    );
  });

  it("verifies the reference's token and returns its claims", async () => {
    expect(await verifyJWT(REFERENCE_JWT.token, SECRET)).toEqual({
      ...REFERENCE_JWT.payload,
      iat: now,
      exp: now + 3600,
    });
  });

  it("round-trips and honours expiry (no leeway)", async () => {
    const token = await signJWT({ email: "a@example.com" }, SECRET, 60);
    expect(await verifyJWT(token, SECRET)).toMatchObject({ email: "a@example.com", exp: now + 60 });
    vi.setSystemTime(FIXED_TIME + 59_000);
    expect(await verifyJWT(token, SECRET)).not.toBeNull();
    vi.setSystemTime(FIXED_TIME + 60_000);
    expect(await verifyJWT(token, SECRET)).toBeNull();
  });

  it("rejects the reference's token once expired", async () => {
    vi.setSystemTime(FIXED_TIME + 3601_000);
    expect(await verifyJWT(REFERENCE_JWT.token, SECRET)).toBeNull();
  });

  it("rejects a wrong secret", async () => {
    expect(await verifyJWT(REFERENCE_JWT.token, `${SECRET}x`)).toBeNull();
  });

  it("rejects tampered claims and signatures", async () => {
    const [h, c, s] = REFERENCE_JWT.token.split(".") as [string, string, string];
    const forged = base64url.encode(
      JSON.stringify({ ...REFERENCE_JWT.payload, email: "evil@example.com", iat: now, exp: now + 3600 }),
    );
    expect(await verifyJWT(`${h}.${forged}.${s}`, SECRET)).toBeNull();
    expect(await verifyJWT(`${h}.${c}.${s.slice(0, -2)}AA`, SECRET)).toBeNull();
    expect(await verifyJWT(`${h}.${c}.`, SECRET)).toBeNull();
  });

  it("rejects alg none and other HMAC algs", async () => {
    const [, c] = REFERENCE_JWT.token.split(".") as [string, string];
    const none = `${base64url.encode('{"alg":"none"}')}.${c}.`;
    expect(await verifyJWT(none, SECRET)).toBeNull();
    const hs512 = await new SignJWT({ a: 1 })
      .setProtectedHeader({ alg: "HS512" })
      .setExpirationTime("1h")
      .sign(utf8Encode(SECRET));
    expect(decodeProtectedHeader(hs512).alg).toBe("HS512");
    expect(await verifyJWT(hs512, SECRET)).toBeNull();
  });

  // Sign and verify are hand-written on core's HMAC; jose (the reference's library) is the oracle.
  describe("against jose", () => {
    const key = utf8Encode(SECRET);
    const joseToken = (
      claims: Record<string, unknown>,
      header: Record<string, unknown> = {},
    ): Promise<string> => new SignJWT(claims).setProtectedHeader({ alg: "HS256", ...header }).sign(key);

    it("jose verifies what we sign, with the claims in jose's order", async () => {
      const { payload } = await jwtVerify(await signJWT({ b: 1, iat: 5, a: "x" }, SECRET, 60), key);
      expect(Object.keys(payload)).toEqual(["b", "iat", "a", "exp"]);
      expect(payload).toEqual({ b: 1, iat: now, a: "x", exp: now + 60 });
    });

    it("refuses what jose refuses, and tells expired from invalid as jose's errors do", async () => {
      expect(await verifyHS256(await joseToken({ exp: now }), SECRET)).toEqual({ failure: "expired" });
      expect(await verifyHS256(await joseToken({ exp: now + 1 }), SECRET)).toHaveProperty("payload");
      expect(await verifyHS256(await joseToken({ exp: "soon" }), SECRET)).toEqual({ failure: "invalid" });
      expect(await verifyHS256(await joseToken({ iat: "0" }), SECRET)).toEqual({ failure: "invalid" });
      expect(await verifyHS256(await joseToken({ nbf: now + 1 }), SECRET)).toEqual({ failure: "invalid" });
      // nbf is checked before exp, as jose does: not-yet-valid wins over expired.
      expect(await verifyHS256(await joseToken({ nbf: now + 1, exp: now - 1 }), SECRET)).toEqual({
        failure: "invalid",
      });
      const expiredForged = (await joseToken({ exp: now - 1 })).slice(0, -2) + "AA";
      expect(await verifyHS256(expiredForged, SECRET)).toEqual({ failure: "invalid" });
    });

    it("accepts crit b64 only as jose does (b64: true), refuses unknown critical extensions", async () => {
      expect(await verifyJWT(await joseToken({ a: 1 }, { crit: ["b64"], b64: true }), SECRET)).toEqual({
        a: 1,
      });
      const unknown = `${base64url.encode('{"alg":"HS256","crit":["exp"],"exp":1}')}.${base64url.encode("{}")}`;
      const signed = `${unknown}.${base64url.encode(new Uint8Array(await crypto.subtle.sign("HMAC", await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]), utf8Encode(unknown))))}`;
      await expect(jwtVerify(signed, key)).rejects.toThrow();
      expect(await verifyJWT(signed, SECRET)).toBeNull();
    });
  });

  it.each(["", "garbage", "a.b.c", "a.b"])("returns null for malformed %j", async (token) => {
    expect(await verifyJWT(token, SECRET)).toBeNull();
  });
});
