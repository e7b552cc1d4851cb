import { describe, expect, it } from "vitest";
import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { BetterAuthError } from "../../src/errors/index.js";
import {
  hexDecode,
  symmetricDecrypt,
  symmetricEncrypt,
  utf8Decode,
  utf8Encode,
  type SecretConfig,
} from "../../src/crypto/index.js";
import {
  OUR_CIPHERTEXTS,
  OUR_ENVELOPE,
  REFERENCE_CIPHERTEXTS,
  REFERENCE_ENVELOPES,
  ROTATION,
  SECRET,
} from "./reference-vectors.js";

const rotated: SecretConfig = {
  current: { version: 2, value: ROTATION.v2 },
  all: new Map([
    [2, ROTATION.v2],
    [1, ROTATION.v1],
  ]),
  legacy: ROTATION.legacy,
};

// Flips one hex digit at `index` (negative counts from the end).
function flip(hex: string, index: number): string {
  const i = index < 0 ? hex.length + index : index;
  return hex.slice(0, i) + (hex[i] === "0" ? "1" : "0") + hex.slice(i + 1);
}

describe("symmetricEncrypt / symmetricDecrypt (bare hex)", () => {
  it.each(REFERENCE_CIPHERTEXTS)(
    "decrypts the reference's ciphertext of $data",
    async ({ key, data, ciphertext }) => {
      expect(await symmetricDecrypt({ key, data: ciphertext })).toBe(data);
    },
  );

  it.each(OUR_CIPHERTEXTS)(
    "our ciphertext of $data (decrypted by the reference) round-trips",
    async ({ key, data, ciphertext }) => {
      expect(await symmetricDecrypt({ key, data: ciphertext })).toBe(data);
    },
  );

  it("lays out nonce(24) ‖ ciphertext ‖ tag(16) as lowercase hex under SHA-256(secret)", async () => {
    const out = await symmetricEncrypt({ key: SECRET, data: "hello" });
    expect(out).toMatch(/^[0-9a-f]{90}$/); // (24 + 5 + 16) bytes
    const bytes = hexDecode(out);
    const plain = xchacha20poly1305(sha256(utf8Encode(SECRET)), bytes.subarray(0, 24)).decrypt(
      bytes.subarray(24),
    );
    expect(utf8Decode(plain)).toBe("hello");
  });

  it("uses a fresh nonce per call", async () => {
    const a = await symmetricEncrypt({ key: SECRET, data: "same" });
    const b = await symmetricEncrypt({ key: SECRET, data: "same" });
    expect(a).not.toBe(b);
    expect(a.slice(0, 48)).not.toBe(b.slice(0, 48));
  });

  it("round-trips empty, long and non-ASCII data", async () => {
    for (const data of ["", "x".repeat(10_000), "ünïcødé ✓ 🔑"]) {
      expect(await symmetricDecrypt({ key: "k", data: await symmetricEncrypt({ key: "k", data }) })).toBe(
        data,
      );
    }
  });

  it("decrypts uppercase hex, as the reference's decoder accepts it", async () => {
    const { key, data, ciphertext } = REFERENCE_CIPHERTEXTS[0]!;
    expect(await symmetricDecrypt({ key, data: ciphertext.toUpperCase() })).toBe(data);
  });

  const { key, ciphertext } = REFERENCE_CIPHERTEXTS[0]!;
  it.each([
    ["wrong key", `${key}x`, ciphertext],
    ["flipped nonce digit", key, flip(ciphertext, 0)],
    ["flipped ciphertext digit", key, flip(ciphertext, 50)],
    ["flipped tag digit", key, flip(ciphertext, -1)],
    ["truncated tag", key, ciphertext.slice(0, -2)],
    ["shorter than nonce + tag", key, ciphertext.slice(0, 78)],
    ["empty", key, ""],
    ["odd length", key, ciphertext.slice(1)],
    ["non-hex", key, `zz${ciphertext.slice(2)}`],
    ["envelope under a plain key", key, `$ba$1$${ciphertext}`],
  ])("throws BetterAuthError on %s", async (_name, k, data) => {
    await expect(symmetricDecrypt({ key: k, data })).rejects.toBeInstanceOf(BetterAuthError);
  });
});

describe("versioned envelope $ba$<version>$<hex>", () => {
  it("encrypts with the current version", async () => {
    const out = await symmetricEncrypt({ key: rotated, data: "t" });
    expect(out).toMatch(/^\$ba\$2\$[0-9a-f]{82}$/);
    expect(await symmetricDecrypt({ key: ROTATION.v2, data: out.slice(6) })).toBe("t");
  });

  it.each([
    ["current version (v2)", REFERENCE_ENVELOPES.v2, "refresh-token-v2"],
    ["an older version (v1)", REFERENCE_ENVELOPES.v1, "refresh-token-v1"],
    ["bare hex via the legacy secret", REFERENCE_ENVELOPES.legacy, "refresh-token-legacy"],
    ["our own envelope (decrypted by the reference)", OUR_ENVELOPE, "refresh-token-v2"],
  ])("decrypts the reference's %s", async (_name, data, expected) => {
    expect(await symmetricDecrypt({ key: rotated, data })).toBe(expected);
  });

  it("finds the current version even when `all` omits it", async () => {
    const config: SecretConfig = { current: { version: 2, value: ROTATION.v2 }, all: new Map() };
    expect(await symmetricDecrypt({ key: config, data: REFERENCE_ENVELOPES.v2 })).toBe("refresh-token-v2");
  });

  it.each([
    [
      "a retired version",
      { current: { version: 2, value: ROTATION.v2 }, all: new Map([[2, ROTATION.v2]]) },
      REFERENCE_ENVELOPES.v1,
    ],
    [
      "bare hex without a legacy secret",
      { current: { version: 2, value: ROTATION.v2 }, all: new Map([[2, ROTATION.v2]]) },
      REFERENCE_ENVELOPES.legacy,
    ],
    [
      "a version mapped to the wrong secret",
      { current: { version: 1, value: ROTATION.v2 }, all: new Map([[1, ROTATION.v2]]) },
      REFERENCE_ENVELOPES.v1,
    ],
    ["a non-decimal version", rotated, REFERENCE_ENVELOPES.v2.replace("$ba$2$", "$ba$ 2$")],
    ["a negative version", rotated, REFERENCE_ENVELOPES.v2.replace("$ba$2$", "$ba$-2$")],
    ["a tampered body", rotated, flip(REFERENCE_ENVELOPES.v2, -1)],
  ])("throws BetterAuthError on %s", async (_name, config: SecretConfig, data) => {
    await expect(symmetricDecrypt({ key: config, data })).rejects.toBeInstanceOf(BetterAuthError);
  });
});
