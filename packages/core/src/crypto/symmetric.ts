import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { BetterAuthError } from "../errors/index.js";
import { hexDecode, hexEncode, utf8Decode, utf8Encode } from "./encoding.js";

/**
 * Resolved secrets when rotation (`secrets` / `BETTER_AUTH_SECRETS`) is configured: the
 * version new data is encrypted with, every version that may still decrypt, and the
 * pre-rotation `secret` for payloads written before versioning.
 */
export interface SecretConfig {
  /** The version and value used for new ciphertexts and tokens (the first configured entry). */
  current: { version: number; value: string };
  /** Every configured version → value, current included, in configured order. */
  all: ReadonlyMap<number, string>;
  /** The plain `secret`, which decrypts bare-hex payloads written before rotation. */
  legacy?: string | undefined;
}

/** Input of {@link symmetricEncrypt} and {@link symmetricDecrypt}. */
export interface SymmetricOptions {
  key: string | SecretConfig;
  data: string;
}

// XChaCha20 takes a 24-byte nonce (draft-irtf-cfrg-xchacha §2), large enough that random
// nonces never realistically collide under one key; Poly1305 appends a 16-byte tag.
const NONCE_LENGTH = 24;
const ENVELOPE_PREFIX = "$ba$";

// The key is one SHA-256 of the secret's UTF-8 bytes: no salt, no KDF stretching. That is
// weak for a low-entropy secret, but it is what the reference stored, so it is what we read.
function keyFor(secret: string): Uint8Array {
  return sha256(utf8Encode(secret));
}

// Layout shared with the reference (@noble/ciphers `managedNonce`): nonce ‖ ciphertext ‖ tag,
// as lowercase hex.
function seal(secret: string, plaintext: string): string {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_LENGTH));
  const sealed = xchacha20poly1305(keyFor(secret), nonce).encrypt(utf8Encode(plaintext));
  const out = new Uint8Array(NONCE_LENGTH + sealed.length);
  out.set(nonce);
  out.set(sealed, NONCE_LENGTH);
  return hexEncode(out);
}

function open(secret: string, hex: string): string {
  try {
    const bytes = hexDecode(hex);
    const nonce = bytes.subarray(0, NONCE_LENGTH);
    // `decrypt` checks the Poly1305 tag before returning anything and throws on a mismatch
    // (or on input shorter than nonce + tag), so a tampered or wrong-key payload never yields
    // plaintext.
    return utf8Decode(xchacha20poly1305(keyFor(secret), nonce).decrypt(bytes.subarray(NONCE_LENGTH)));
  } catch (cause) {
    // One error for every failure (bad hex, short input, bad tag): callers cannot tell a
    // wrong key from tampering, and neither should logs of the message.
    throw new BetterAuthError("Failed to decrypt data", { cause });
  }
}

// `$ba$<version>$<hex>`: the version picks the key. A canonical non-negative decimal only —
// the reference's `parseInt` also takes "01", " 1" or "1x", which no writer ever produces.
const ENVELOPE = /^\$ba\$(\d+)\$/;

/**
 * Encrypts a string with XChaCha20-Poly1305 under SHA-256(secret), as lowercase hex; with a
 * {@link SecretConfig} the result is wrapped as `$ba$<currentVersion>$<hex>`.
 */
export async function symmetricEncrypt({ key, data }: SymmetricOptions): Promise<string> {
  if (typeof key === "string") return seal(key, data);
  return `${ENVELOPE_PREFIX}${key.current.version}$${seal(key.current.value, data)}`;
}

/**
 * Decrypts {@link symmetricEncrypt} output; with a {@link SecretConfig}, an envelope picks its
 * version and bare hex uses the legacy secret. Throws on a wrong key, tampering or bad input.
 */
export async function symmetricDecrypt({ key, data }: SymmetricOptions): Promise<string> {
  // A plain string key reads bare hex only, as in the reference (no envelope unwrapping).
  if (typeof key === "string") return open(key, data);
  const envelope = ENVELOPE.exec(data);
  if (envelope !== null) {
    const version = Number(envelope[1]);
    const secret = version === key.current.version ? key.current.value : key.all.get(version);
    if (secret === undefined) {
      throw new BetterAuthError(`Secret version ${version} is not configured (was it retired?)`);
    }
    return open(secret, data.slice(envelope[0].length));
  }
  // Bare hex predates rotation: only the old single `secret` can have written it.
  if (!key.legacy) {
    throw new BetterAuthError("Cannot decrypt a bare-hex payload: no legacy secret is configured");
  }
  return open(key.legacy, data);
}
