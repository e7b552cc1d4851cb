import { serviceKey, type AuthContext } from "@latchkey/core";
import { decodeProtectedHeader, jwtVerify, type JWK, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { importPublicKey, rowAlgorithm } from "./key-pair.js";
import type { KeyStore } from "./key-store.js";
import type { ResolvedJwtOptions } from "./options.js";
import { remoteKeySet } from "./remote-jwks.js";
import type { JwkRow } from "./schema.js";
import { defaultAudience, defaultIssuer, signToken, type SignOptions } from "./sign-token.js";
import { verifiedTokens } from "./verified-tokens.js";

export type { SignOptions } from "./sign-token.js";

/** Per-call settings of {@link JwtSigner.verify}; each falls back to the plugin's options. */
export interface VerifyOptions {
  issuer?: string | undefined;
  audience?: string | string[] | undefined;
}

/** One key of the served set: the public JWK with `alg`, `crv` and `kid` (RFC 7517 §4). */
export type PublicJwk = JWK & { kid: string; alg: string };

/** The signing service the jwt plugin publishes for other plugins (oauth-provider). */
export interface JwtSigner {
  /**
   * Signs `payload` with the current key (or the one `signingKeyId` / `signingAlgorithm`
   * pins); `exp`, `iss`, `aud` default from the options. With `jwt.sign`, that function signs.
   */
  sign(payload: JWTPayload, options?: SignOptions): Promise<string>;
  /** The payload of a token signed by one of the keys, or null when it does not verify. */
  verify(token: string, options?: VerifyOptions): Promise<JWTPayload | null>;
  /** The public keys of the set: what `/jwks` serves, or the `jwks.remoteUrl` set. */
  jwks(): Promise<PublicJwk[]>;
  /** Where the key set is published: `jwks.remoteUrl`, else `/jwks` (or `jwksPath`) under the base URL. */
  jwksUri(): string;
  /**
   * Why `sign` with this key pin would fail (the named key is absent, expired or of another
   * algorithm; no key of the algorithm exists or can be made), or undefined when it can sign.
   * Always undefined with `jwt.sign`, whose keys this plugin cannot see.
   */
  pinProblem(pin: Pick<SignOptions, "signingKeyId" | "signingAlgorithm">): Promise<string | undefined>;
}

/** The service key under which `jwt()` publishes its {@link JwtSigner}. */
export const JWT_SIGNER = serviceKey<JwtSigner>("jwt.signer");

/** RFC 7518 §3.1 / RFC 8037 §3.1 public-key JWS algorithms. */
const ASYMMETRIC_ALGORITHMS = ["EdDSA", "Ed25519", "ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"];

/** Builds the signer over an instance's keys (its adapter, the custom adapter, or the remote set). */
export function createSigner(ctx: AuthContext, options: ResolvedJwtOptions, store: KeyStore): JwtSigner {
  const remote = options.remoteUrl ? remoteKeySet(options.remoteUrl) : undefined;

  // Tokens verified before under a stored key (remote sets have their own cache of keys).
  const verified = remote ? undefined : verifiedTokens();

  return {
    sign: (payload, signOptions) => signToken(ctx, options, store, payload, signOptions),

    async verify(token, verifyOptions = {}) {
      // RFC 7519 §4.1.1/§4.1.3: both are checked.
      const issuer = verifyOptions.issuer ?? defaultIssuer(ctx, options);
      const audience = verifyOptions.audience ?? defaultAudience(ctx, options);
      const cacheKey = `${issuer}\n${JSON.stringify(audience)}\n${token}`;
      try {
        const known = await verified?.recall(cacheKey, (kid) => store.find(ctx, kid));
        if (known) return known;
        // A token without `kid` is refused: the key must be named, never guessed (reference rule).
        if (!decodeProtectedHeader(token).kid) return null;
        let used: JwkRow | undefined;
        /** The verification key for `token`'s header from the stored keys; throws when none matches. */
        const storedKey: JWTVerifyGetKey = async (header) => {
          const row = header.kid ? await store.find(ctx, header.kid) : undefined;
          // RFC 7515 §4.1.1: the key's own algorithm is the only one accepted.
          if (!row || rowAlgorithm(row, options) !== header.alg) throw new Error("no matching key");
          used = row;
          return importPublicKey(row, options);
        };
        const { payload } = await jwtVerify(token, remote ? remote.resolver() : storedKey, {
          // Public-key signatures only: a symmetric key slipped into a remote set signs nothing.
          algorithms: ASYMMETRIC_ALGORITHMS,
          issuer,
          audience,
        });
        if (!payload.sub || !payload.aud) return null;
        if (used) verified?.remember(cacheKey, payload, used);
        return payload;
      } catch (error) {
        // Expected for bad tokens; log the reason only, never the token.
        ctx.logger.debug("JWT verification failed", error instanceof Error ? error.name : "unknown");
        return null;
      }
    },

    async jwks() {
      if (remote) return (await remote.keys()).keys as PublicJwk[];
      const rows = await store.served(ctx);
      const keyPair = options.keyPairConfig;
      // The reference falls back to the configured curve only when keyPairConfig was given.
      const defaultCrv = options.configuredKeyPair && "crv" in keyPair ? keyPair.crv : undefined;
      return rows.map((row) => ({
        alg: rowAlgorithm(row, options),
        crv: row.crv ?? defaultCrv,
        ...(JSON.parse(row.publicKey) as JWK),
        kid: row.id,
      })) as PublicJwk[];
    },

    jwksUri: () => options.remoteUrl ?? `${ctx.baseURL}${options.jwksPath}`,

    pinProblem: async (pin) => (options.remoteSign ? undefined : store.pinProblem(ctx, pin)),
  };
}
