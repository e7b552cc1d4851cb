import { base64url, calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK, type JWTPayload } from "jose";

/**
 * RFC 9449 DPoP proof checks, shared by the token endpoint and the resource-server helper.
 * Depends on jose only (no server parts), so an API can verify proofs on its own.
 */

/** RFC 9449 §5.1 algorithms accepted by default (the reference's list). */
export const DPOP_ALGORITHMS = ["EdDSA", "ES256", "ES512", "PS256", "RS256"];
/** Seconds a proof's `iat` may lie in the past. */
export const DEFAULT_PROOF_MAX_AGE = 300;
const CLOCK_SKEW = 5;
const MAX_JTI_LENGTH = 512;
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/** A proof that fails a check; `message` is public text (never the proof or a token). */
export class DpopProofError extends Error {
  override readonly name = "DpopProofError";
  readonly code = "invalid_dpop_proof";
}

/** Records a proof's replay key; false when the key was already recorded (a replay). */
export type DpopReplayCheck = (key: string, expiresAt: Date) => Promise<boolean>;

export interface DpopProofCheck {
  /** The `DPoP` header value. */
  proof: string;
  /** The request method (`htm`). */
  method: string;
  /** The URLs the request may have been sent to (`htu`, compared without query and fragment). */
  urls: string[];
  /** For a resource request: the access token, whose hash must be the proof's `ath`. */
  accessToken?: string | undefined;
  /** The thumbprint the token is bound to (`cnf.jkt`, `dpop_jkt`). */
  expectedJkt?: string | undefined;
  maxAge?: number | undefined;
  algorithms?: string[] | undefined;
  /** Single use of the proof's `jti` (RFC 9449 §11.1); without it replays are not detected. */
  replay?: DpopReplayCheck | undefined;
}

/** What a valid proof proves. */
export interface VerifiedProof {
  /** RFC 7638 SHA-256 thumbprint of the proof key. */
  jkt: string;
  jti: string;
  iat: number;
}

/** `scheme://host[:port]/path` of a URL (RFC 9449 §4.3: `htu` without query and fragment). */
export function htuOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** RFC 9449 §4.2 `ath`: base64url SHA-256 of the access token. */
export async function accessTokenHash(token: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));
}

/** The key for the replay store: the proof's key, method, URL and `jti`, hashed. */
async function replayKey(jkt: string, htm: string, htu: string, jti: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${jkt}\n${htm}\n${htu}\n${jti}`))));
}

const fail = (message: string): never => {
  throw new DpopProofError(message);
};

function publicKeyOf(header: ReturnType<typeof decodeProtectedHeader>, algorithms: string[]): JWK {
  const alg = header.alg;
  if (!alg || alg === "none" || alg.startsWith("HS")) fail("DPoP proof must use an asymmetric JWS algorithm");
  if (!algorithms.includes(alg!)) fail("DPoP proof uses an unsupported JWS algorithm");
  const jwk = header.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== "object" || Array.isArray(jwk)) fail("DPoP proof header must include a public jwk");
  if (jwk!.kty === "oct") fail("DPoP proof jwk must be asymmetric");
  if (PRIVATE_MEMBERS.some((name) => name in jwk!)) fail("DPoP proof jwk must not contain private key material");
  return jwk!;
}

/**
 * Verifies a DPoP proof (RFC 9449 §4.3): `typ: dpop+jwt`, an allowed asymmetric algorithm,
 * the signature by the embedded public key, `htm`, `htu`, `iat` within `maxAge` (5 s of skew),
 * `jti`, `ath` when a token is presented, the key thumbprint when the token is bound, and
 * single use of the proof. Throws {@link DpopProofError} with the reference's messages.
 */
export async function verifyDpopProof(check: DpopProofCheck): Promise<VerifiedProof> {
  const { proof } = check;
  const maxAge = check.maxAge ?? DEFAULT_PROOF_MAX_AGE;
  if (!proof || proof.split(".").length !== 3) fail("DPoP proof must be a compact JWT");
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    return fail("DPoP proof header is invalid");
  }
  if (header.typ !== "dpop+jwt") fail('DPoP proof typ must be "dpop+jwt"');
  const jwk = publicKeyOf(header, check.algorithms ?? DPOP_ALGORITHMS);
  let payload: JWTPayload;
  try {
    payload = (await jwtVerify(proof, await importJWK(jwk, header.alg), { typ: "dpop+jwt" })).payload;
  } catch {
    return fail("DPoP proof signature is invalid");
  }
  const { htm, htu, jti, iat } = payload as { htm?: unknown; htu?: unknown; jti?: unknown; iat?: unknown };
  if (typeof htm !== "string" || typeof htu !== "string" || typeof jti !== "string" || !htm || !htu || !jti || typeof iat !== "number") {
    return fail("DPoP proof must include htm, htu, jti, and iat claims");
  }
  if (jti.length > MAX_JTI_LENGTH) fail("DPoP proof jti is too large");
  if (htm.toUpperCase() !== check.method.toUpperCase()) fail("DPoP proof htm does not match the request method");
  let proofHtu: string;
  try {
    if (htu.includes("#")) throw new Error("fragment");
    proofHtu = htuOf(htu);
  } catch {
    return fail("DPoP proof htu is invalid");
  }
  const accepted = check.urls.map(htuOf);
  if (!accepted.includes(proofHtu)) fail("DPoP proof htu does not match the request URL");
  const now = Math.floor(Date.now() / 1000);
  if (iat > now + CLOCK_SKEW || now - iat > maxAge) fail("DPoP proof iat is outside the accepted window");
  const ath = typeof payload.ath === "string" ? payload.ath : undefined;
  if (check.accessToken !== undefined) {
    if (!ath) fail("DPoP proof must include an ath claim");
    if (ath !== (await accessTokenHash(check.accessToken))) fail("DPoP proof ath does not match the access token");
  }
  const jkt = await calculateJwkThumbprint(jwk, "sha256");
  if (check.expectedJkt !== undefined && jkt !== check.expectedJkt) fail("DPoP proof key does not match the bound token");
  if (check.replay) {
    const fresh = await check.replay(await replayKey(jkt, htm.toUpperCase(), proofHtu, jti), new Date((iat + maxAge) * 1000));
    if (!fresh) fail("DPoP proof jti has already been used");
  }
  return { jkt, jti, iat };
}
