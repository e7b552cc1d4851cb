import type { SessionWithUser } from "@latchkey/core";
import type { JWTPayload } from "jose";

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
}

/** Options after defaults, resolved once by the factory. */
export interface ResolvedJwtOptions {
  keyPairConfig: KeyPairConfig;
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

// Reference options this package does not implement yet. A config ported from the reference
// that sets one must fail at start-up, not run with keys or cookies other than it asked for.
const UNSUPPORTED: ReadonlyArray<readonly [string, (o: Record<string, Record<string, unknown> | undefined>) => unknown]> = [
  ["jwt.sign", (o) => o.jwt?.sign],
  ["jwks.remoteUrl", (o) => o.jwks?.remoteUrl],
  ["jwks.keyPairConfigs", (o) => o.jwks?.keyPairConfigs],
  ["sessionCookieCache", (o) => o.sessionCookieCache],
  ["adapter", (o) => o.adapter],
  ["schema", (o) => o.schema],
];

/** Applies the defaults once; a bad path, algorithm or interval, or an unsupported option, is a `TypeError` at start-up. */
export function resolveJwtOptions(options: JwtOptions = {}): ResolvedJwtOptions {
  for (const [name, read] of UNSUPPORTED) {
    if (read(options as Record<string, Record<string, unknown> | undefined>)) {
      throw new TypeError(`jwt: the option ${name} is not supported by @latchkey/jwt yet.`);
    }
  }
  const jwks = options.jwks ?? {};
  const jwksPath = jwks.jwksPath ?? "/jwks";
  // Same rule as the reference: a path outside the base path could shadow another route.
  if (typeof jwksPath !== "string" || !jwksPath.startsWith("/") || jwksPath.includes("..")) {
    throw new TypeError("jwt: jwks.jwksPath must be a non-empty string starting with '/' and not contain '..'.");
  }
  if (jwks.keyPairConfig && !ALGORITHMS.includes(jwks.keyPairConfig.alg)) {
    throw new TypeError(`jwt: jwks.keyPairConfig.alg must be one of ${ALGORITHMS.join(", ")}.`);
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
