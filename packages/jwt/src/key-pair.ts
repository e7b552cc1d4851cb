import { symmetricDecrypt, symmetricEncrypt, BetterAuthError } from "@latchkey/core";
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import type { KeyPairConfig, ResolvedJwtOptions } from "./options.js";
import type { JwkRow, NewJwkRow } from "./schema.js";

/**
 * Makes a key pair for `config` and its row data. Keys are extractable: the private JWK is
 * exported once, here, to be stored; jose picks the curve from the alg unless `crv` says
 * otherwise (RFC 8037 §2 for Ed25519, RFC 7518 §3.4 for ES256/ES512 on P-256/P-521).
 */
export async function newKeyRow(
  config: KeyPairConfig,
  options: ResolvedJwtOptions,
  secret: string,
  now = new Date(),
): Promise<NewJwkRow> {
  const { alg, ...params } = config;
  const { publicKey, privateKey } = await generateKeyPair(alg, { ...params, extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const privateJson = JSON.stringify(await exportJWK(privateKey));
  // The configured curve wins over the exported one, as in the reference (both agree for EdDSA).
  const crv = ("crv" in params && typeof params.crv === "string" ? params.crv : undefined) ?? publicJwk.crv;
  return {
    alg,
    ...(crv ? { crv } : {}),
    publicKey: JSON.stringify(publicJwk),
    // Reference storage: the ciphertext (hex) wrapped once more in JSON.stringify, so the
    // column holds a JSON string literal with its quotes; both sides parse it before decrypting.
    privateKey: options.disablePrivateKeyEncryption
      ? privateJson
      : JSON.stringify(await symmetricEncrypt({ key: secret, data: privateJson })),
    createdAt: now,
    ...(options.rotationInterval ? { expiresAt: new Date(now.getTime() + options.rotationInterval * 1000) } : {}),
  };
}

/** The algorithm a row signs with: its own, or (legacy rows with none) the configured one. */
export const rowAlgorithm = (row: Pick<JwkRow, "alg">, options: ResolvedJwtOptions): string =>
  row.alg ?? options.keyPairConfig.alg;

/**
 * Decrypts and imports a row's private key. A wrong secret is a storage error whose message
 * names the cause but never the key material.
 */
export function importPrivateKey(row: JwkRow, options: ResolvedJwtOptions, secret: string): Promise<CryptoKey> {
  // The stored text and the secret decide the key: decrypted and imported once per process.
  const alg = rowAlgorithm(row, options);
  return byRow(privateByRow, row, `${alg}\n${options.disablePrivateKeyEncryption ? "" : secret}`, () =>
    remembered(`private\n${alg}\n${options.disablePrivateKeyEncryption ? "" : secret}\n${row.privateKey}`, () =>
      decryptAndImport(row, options, secret),
    ),
  );
}

async function decryptAndImport(row: JwkRow, options: ResolvedJwtOptions, secret: string): Promise<CryptoKey> {
  let json: string;
  if (options.disablePrivateKeyEncryption) json = row.privateKey;
  else {
    try {
      json = await symmetricDecrypt({ key: secret, data: JSON.parse(row.privateKey) as string });
    } catch (cause) {
      throw new BetterAuthError(
        "Failed to decrypt private key. Make sure the secret currently in use is the same as the one used to encrypt the private key. If you are using a different secret, either clean up your JWKS or disable private key encryption.",
        { cause },
      );
    }
  }
  return (await importJWK(JSON.parse(json) as JWK, rowAlgorithm(row, options))) as CryptoKey;
}

/** Imports a row's public key for verification. */
export function importPublicKey(row: JwkRow, options: ResolvedJwtOptions): Promise<CryptoKey> {
  const alg = rowAlgorithm(row, options);
  return byRow(publicByRow, row, alg, () =>
    remembered(`public\n${alg}\n${row.publicKey}`, async () => (await importJWK(JSON.parse(row.publicKey) as JWK, alg)) as CryptoKey),
  );
}

/**
 * The key imported for this very row object, when made with the same `setting` (algorithm, and
 * secret for private keys) from the same stored text: the rows held in memory (key-cache.ts)
 * find their key without building the long text key of {@link remembered}.
 */
interface RowKey {
  setting: string;
  text: string;
  key: Promise<CryptoKey>;
}
const publicByRow = new WeakMap<JwkRow, RowKey>();
const privateByRow = new WeakMap<JwkRow, RowKey>();

function byRow(map: WeakMap<JwkRow, RowKey>, row: JwkRow, setting: string, make: () => Promise<CryptoKey>): Promise<CryptoKey> {
  const text = map === publicByRow ? row.publicKey : row.privateKey;
  const known = map.get(row);
  if (known && known.setting === setting && known.text === text) return known.key;
  const key = make();
  map.set(row, { setting, text, key });
  key.catch(() => {
    if (map.get(row)?.key === key) map.delete(row);
  });
  return key;
}

/**
 * Imported keys by what they were made from (algorithm, stored key text, and for private keys the
 * secret): the rows are still read on every call, so rotation and removal are seen at once, but
 * the same text is parsed, decrypted and imported only once. A failure is not kept. Bounded: a
 * process meets a handful of keys; past the bound the cache starts over.
 */
const importedKeys = new Map<string, Promise<CryptoKey>>();
const MAX_IMPORTED_KEYS = 64;

function remembered(cacheKey: string, make: () => Promise<CryptoKey>): Promise<CryptoKey> {
  const known = importedKeys.get(cacheKey);
  if (known) return known;
  if (importedKeys.size >= MAX_IMPORTED_KEYS) importedKeys.clear();
  const made = make();
  importedKeys.set(cacheKey, made);
  made.catch(() => importedKeys.delete(cacheKey));
  return made;
}
