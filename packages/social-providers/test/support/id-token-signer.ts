import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { beforeAll } from "vitest";
import type { FakeProvider } from "./fake-provider.ts";

/** A signing key for test ID tokens and the JWKS the provider emulator serves for it. */
export interface IdTokenSigner {
  kid: string;
  alg: string;
  jwks: { keys: JWK[] };
  /** Signs `claims` (with `iat`/`exp` defaulting to now / now + 10 min). */
  sign(claims: Record<string, unknown>, header?: { kid?: string }): Promise<string>;
}

let counter = 0;

/** A fresh key pair (RS256 unless told otherwise) with a unique `kid`. */
export async function idTokenSigner(alg = "RS256"): Promise<IdTokenSigner> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `test-key-${alg}-${++counter}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return {
    kid,
    alg,
    jwks: { keys: [jwk] },
    sign(claims, header = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg, kid: header.kid ?? kid, typ: "JWT" })
        .sign(privateKey);
    },
  };
}

/** An unsigned-looking JWT (header.payload.signature) for the code flow, where claims are only decoded. */
export function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT" })}.${part(claims)}.${Buffer.from("sig").toString("base64url")}`;
}

/**
 * One signer per algorithm, made in the suite's `beforeAll`, whose keys `fake` serves as one
 * JWKS at `route`. Read the signers inside tests (`signers.RS256.sign(...)`), not at collection time.
 */
export function useIdTokenSigners<Alg extends string>(
  fake: FakeProvider,
  route: string,
  ...algs: Alg[]
): Record<Alg, IdTokenSigner> {
  const signers = {} as Record<Alg, IdTokenSigner>;
  beforeAll(async () => {
    for (const alg of algs) signers[alg] = await idTokenSigner(alg);
    fake.on(route, { json: { keys: algs.flatMap((alg) => signers[alg].jwks.keys) } });
  });
  return signers;
}
