import type { AuthContext, SessionWithUser } from "@latchkey/core";
import type { JWTPayload } from "jose";
import type { JwkRow, JwtSchemaOptions, NewJwkRow } from "./schema.js";

/** A key algorithm and its parameters, as the reference's `keyPairConfig` takes them. */
export type KeyPairConfig =
  | { alg: "EdDSA"; crv?: "Ed25519" | undefined }
  | { alg: "ES256"; crv?: never }
  | { alg: "ES512"; crv?: never }
  | { alg: "RS256"; modulusLength?: number | undefined }
  | { alg: "PS256"; modulusLength?: number | undefined };

/** The algorithms `keyPairConfig.alg` accepts. */
export type JwkAlgorithm = KeyPairConfig["alg"];

/** Options of `jwks`: which keys are made, how long they sign and where they are served. */
export interface JwksOptions {
  /**
   * Algorithm (and curve or modulus) of the keys the plugin creates.
   * @default { alg: "EdDSA", crv: "Ed25519" }
   */
  keyPairConfig?: KeyPairConfig | undefined;
  /**
   * More algorithms the plugin may sign with when a caller pins one (`signingAlgorithm`):
   * the first such signature makes that algorithm's key, later ones reuse it.
   * @default []
   */
  keyPairConfigs?: readonly KeyPairConfig[] | undefined;
  /**
   * Where the key set is published when keys live elsewhere (a KMS, a CDN): `/jwks` is then
   * off (404), this URL is the advertised one, and `verifyJWT` reads its keys from it.
   * Requires `keyPairConfig.alg`.
   */
  remoteUrl?: string | undefined;
  /**
   * Store private keys as plain JWK JSON instead of encrypted with the auth secret.
   * @default false
   */
  disablePrivateKeyEncryption?: boolean | undefined;
  /**
   * Seconds a key signs before a new one is made; unset means keys never expire.
   * @default undefined
   */
  rotationInterval?: number | undefined;
  /**
   * Seconds an expired key stays in `/jwks` so tokens it signed still verify.
   * @default 2592000 (30 days)
   */
  gracePeriod?: number | undefined;
  /**
   * Path of the key set, under the auth base path.
   * @default "/jwks"
   */
  jwksPath?: string | undefined;
}

/** Options of `jwt`: the claims of the tokens the plugin signs. */
export interface JwtClaimOptions {
  /**
   * `iss` of signed tokens, and the issuer `verifyJWT` requires.
   * @default the configured `baseURL`
   */
  issuer?: string | undefined;
  /**
   * `aud` of signed tokens, and the audience `verifyJWT` requires.
   * @default the configured `baseURL`
   */
  audience?: string | string[] | undefined;
  /**
   * Lifetime (`"15m"`, `"1h"`, `"7d"`), seconds since the epoch, or a `Date`.
   * @default "15m"
   */
  expirationTime?: string | number | Date | undefined;
  /**
   * Builds the payload of session tokens (`/token`, `set-auth-jwt`).
   * @default the session's user
   */
  definePayload?: ((session: SessionWithUser) => Record<string, unknown> | Promise<Record<string, unknown>>) | undefined;
  /**
   * Builds the `sub` of session tokens.
   * @default the user's id
   */
  getSubject?: ((session: SessionWithUser) => string | Promise<string>) | undefined;
  /**
   * Signs elsewhere (a KMS): receives the complete payload, the extra protected-header
   * members the caller needs (`typ`) and the caller's key pin, and returns the compact JWT
   * with its own `alg` and `kid`. Requires `jwks.remoteUrl`.
   */
  sign?: RemoteSign | undefined;
}

/** The per-call key pin of a signature (`signJWT`'s `signingKeyId` / `signingAlgorithm`). */
export interface SigningConfig {
  signingKeyId?: string | undefined;
  signingAlgorithm?: JwkAlgorithm | undefined;
}

/** `jwt.sign`: signs `payload` outside the plugin, honouring `header` and `signingConfig`. */
export type RemoteSign = (
  payload: JWTPayload,
  header?: { typ?: string; cty?: string } & Record<string, unknown>,
  signingConfig?: SigningConfig,
) => string | Promise<string>;

/** What the custom adapter's functions receive: the reference's endpoint context's `context`. */
export interface JwksAdapterContext {
  context: AuthContext;
}

/** `adapter`: where keys are read and written instead of the `jwks` table. */
export interface JwksAdapter {
  /** Every key (expired ones included); replaces reading the table. */
  getJwks?: ((ctx: JwksAdapterContext) => Promise<JwkRow[] | null | undefined>) | undefined;
  /** Stores a new key and returns it with its id; replaces the table insert. */
  createJwk?: ((data: NewJwkRow, ctx: JwksAdapterContext) => Promise<JwkRow>) | undefined;
}

/** Options of `jwt()`, under the reference's names and defaults. */
export interface JwtOptions {
  /** Key generation, rotation and the key-set path. */
  jwks?: JwksOptions | undefined;
  /** Claims of signed tokens. */
  jwt?: JwtClaimOptions | undefined;
  /**
   * Do not add `set-auth-jwt` to `/get-session` answers.
   * @default false
   */
  disableSettingJwtHeader?: boolean | undefined;
  /**
   * Sign the session cookie cache (`session.cookieCache.strategy: "jwt"`) with the plugin's
   * keys instead of the auth secret, so services holding only `/jwks` can read it.
   * @default false
   */
  sessionCookieCache?: boolean | undefined;
  /** Another table name or other column names for `jwks`. */
  schema?: JwtSchemaOptions | undefined;
  /** Read and write keys somewhere other than the `jwks` table. */
  adapter?: JwksAdapter | undefined;
}

/** Options after defaults, resolved once by the factory. */
export interface ResolvedJwtOptions {
  keyPairConfig: KeyPairConfig;
  /** The extra algorithms keys may be made for, besides `keyPairConfig`. */
  keyPairConfigs: readonly KeyPairConfig[];
  /** The external key set; `/jwks` is off when set. */
  remoteUrl: string | undefined;
  /** The external signer (`jwt.sign`). */
  remoteSign: RemoteSign | undefined;
  sessionCookieCache: boolean;
  adapter: JwksAdapter;
  schema: JwtSchemaOptions | undefined;
  /** Whether `keyPairConfig` was given; the served `crv` fallback depends on it, as in the reference. */
  configuredKeyPair: boolean;
  disablePrivateKeyEncryption: boolean;
  rotationInterval: number | undefined;
  gracePeriod: number;
  jwksPath: string;
  claims: JwtClaimOptions;
  expirationTime: string | number | Date;
  disableSettingJwtHeader: boolean;
}

/** The payload type the signer accepts: standard claims plus anything else. */
export type JwtPayload = JWTPayload;

const DEFAULT_KEY_PAIR: KeyPairConfig = { alg: "EdDSA", crv: "Ed25519" };
const ALGORITHMS: readonly string[] = ["EdDSA", "ES256", "ES512", "RS256", "PS256"];

/** Applies the defaults once; a bad path, algorithm or interval, or an unsupported option, is a `TypeError` at start-up. */
export function resolveJwtOptions(options: JwtOptions = {}): ResolvedJwtOptions {
  const jwks = options.jwks ?? {};
  const remoteSign = options.jwt?.sign;
  // Reference rules: a remote signer needs the key set it publishes to, and the advertised
  // set needs a declared algorithm (discovery documents list it).
  if (remoteSign !== undefined && typeof remoteSign !== "function") throw new TypeError("jwt: jwt.sign must be a function.");
  if (remoteSign && !jwks.remoteUrl) throw new TypeError("jwt: jwks.remoteUrl must be set when using jwt.sign.");
  if (jwks.remoteUrl !== undefined) {
    if (!isHttpURL(jwks.remoteUrl)) throw new TypeError("jwt: jwks.remoteUrl must be an http(s) URL.");
    if (!jwks.keyPairConfig?.alg) {
      throw new TypeError("jwt: jwks.keyPairConfig.alg must be specified when jwks.remoteUrl is used.");
    }
  }
  if (options.sessionCookieCache && remoteSign) {
    throw new TypeError("jwt: sessionCookieCache requires the plugin's own keys and does not support jwt.sign.");
  }
  const jwksPath = jwks.jwksPath ?? "/jwks";
  // Same rule as the reference: a path outside the base path could shadow another route.
  if (typeof jwksPath !== "string" || !jwksPath.startsWith("/") || jwksPath.includes("..")) {
    throw new TypeError("jwt: jwks.jwksPath must be a non-empty string starting with '/' and not contain '..'.");
  }
  if (jwks.keyPairConfig && !ALGORITHMS.includes(jwks.keyPairConfig.alg)) {
    throw new TypeError(`jwt: jwks.keyPairConfig.alg must be one of ${ALGORITHMS.join(", ")}.`);
  }
  const keyPairConfigs = jwks.keyPairConfigs ?? [];
  if (!Array.isArray(keyPairConfigs) || keyPairConfigs.some((config) => !ALGORITHMS.includes(config?.alg))) {
    throw new TypeError(`jwt: every jwks.keyPairConfigs entry's alg must be one of ${ALGORITHMS.join(", ")}.`);
  }
  for (const [name, value] of [
    ["rotationInterval", jwks.rotationInterval],
    ["gracePeriod", jwks.gracePeriod],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      throw new TypeError(`jwt: jwks.${name} must be a non-negative number of seconds.`);
    }
  }
  return {
    keyPairConfig: jwks.keyPairConfig ?? DEFAULT_KEY_PAIR,
    keyPairConfigs,
    remoteUrl: jwks.remoteUrl,
    remoteSign,
    sessionCookieCache: options.sessionCookieCache === true,
    adapter: options.adapter ?? {},
    schema: options.schema,
    configuredKeyPair: jwks.keyPairConfig !== undefined,
    disablePrivateKeyEncryption: jwks.disablePrivateKeyEncryption ?? false,
    rotationInterval: jwks.rotationInterval || undefined,
    gracePeriod: jwks.gracePeriod ?? 60 * 60 * 24 * 30,
    jwksPath,
    claims: options.jwt ?? {},
    expirationTime: options.jwt?.expirationTime ?? "15m",
    disableSettingJwtHeader: options.disableSettingJwtHeader ?? false,
  };
}

function isHttpURL(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
