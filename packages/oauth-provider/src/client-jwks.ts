import { boundedFetch, isTrustedOrigin, type AuthContext } from "@latchkey/core";
import type { JSONWebKeySet } from "jose";
import { oauthError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import { allowListed, outboundUrlProblem } from "./outbound-host.js";
import { privateResolutionProblem } from "./resolved-host.js";
import type { OAuthClientRow } from "./schema.js";

/**
 * Algorithms a `private_key_jwt` assertion may be signed with: the reference's RFC 7518 list
 * plus RFC 9864's `Ed25519`, which openid-client and oauth4webapi put on assertions signed with
 * an Ed25519 key (the reference refuses them: DIVERGENCES.md row 126).
 */
export const ASSERTION_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

const EC_ALGORITHM: Record<string, string> = { "P-256": "ES256", "P-384": "ES384", "P-521": "ES512" };
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const CACHE_TTL_MS = 300_000;
const CACHE_MAX = 500;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_JWKS_BYTES = 64 * 1024;
const JSON_TYPE = /^application\/(?:[-\w.]+\+)?json\s*(?:;|$)/i;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const filled = (key: Record<string, unknown>, name: string) => typeof key[name] === "string" && (key[name] as string).length > 0;

/** Why one JWK cannot verify client assertions, or null (public asymmetric keys, matching `alg`). */
function keyProblem(key: unknown): string | null {
  if (!isRecord(key)) return "jwks keys must be supported public JWKs with required key parameters";
  if (key.kty === "oct" || PRIVATE_MEMBERS.some((name) => name in key)) return "jwks must contain only public asymmetric keys";
  const shape =
    key.kty === "RSA" ? filled(key, "n") && filled(key, "e")
    : key.kty === "EC" ? typeof key.crv === "string" && key.crv in EC_ALGORITHM && filled(key, "x") && filled(key, "y")
    : key.kty === "OKP" ? key.crv === "Ed25519" && filled(key, "x")
    : false;
  if (!shape) return "jwks keys must be supported public JWKs with required key parameters";
  if (key.alg === undefined) return null;
  const alg = key.alg;
  const fits =
    typeof alg === "string" && ASSERTION_ALGORITHMS.includes(alg) &&
    (key.kty === "RSA" ? /^(RS|PS)/.test(alg) : key.kty === "EC" ? EC_ALGORITHM[key.crv as string] === alg : alg === "EdDSA" || alg === "Ed25519");
  return fits ? null : "jwks key alg must be supported for private_key_jwt and compatible with its key type and signing curve";
}

/**
 * The key set for verification: an Ed25519 key's `alg` (`EdDSA` or `Ed25519`) names one
 * algorithm under two names (RFC 9864), so it is dropped and either header `alg` selects it.
 */
export function verificationKeys(jwks: JSONWebKeySet): JSONWebKeySet {
  return { keys: jwks.keys.map((key) => (key.kty === "OKP" && key.crv === "Ed25519" ? { ...key, alg: undefined } : key)) };
}

/** Why a JWK Set cannot be a client's key set, or null. No I/O. */
export function jwksProblem(input: unknown): string | null {
  const keys = isRecord(input) && Array.isArray(input.keys) ? input.keys : undefined;
  if (!keys?.length) return "jwks must be an RFC 7517 JWK Set object with a non-empty keys array";
  for (const key of keys) {
    const problem = keyProblem(key);
    if (problem) return problem;
  }
  return null;
}

/** Why a registered `jwks_uri` is refused (RFC 7591 §2; SSRF rules), or null. */
export function jwksUriProblem(ctx: AuthContext, options: ResolvedOAuthOptions, uri: string): string | null {
  const problem = outboundUrlProblem(uri, "jwks_uri", options.privateHostAllowList);
  if (problem) return problem;
  if (!isTrustedOrigin(uri, ctx.trustedOrigins, false)) return "jwks_uri must belong to a trusted origin";
  return null;
}

interface CachedKeys {
  jwks: JSONWebKeySet;
  fetchedAt: number;
}
const cache = new Map<string, CachedKeys>();

function remember(key: string, jwks: JSONWebKeySet, now: number): void {
  cache.delete(key);
  cache.set(key, { jwks, fetchedAt: now });
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
}

/** One bounded GET of the client's JWK Set: 5 s, 64 KiB, no redirects, a JSON media type. */
async function download(uri: string): Promise<JSONWebKeySet> {
  const response = await boundedFetch(uri, { headers: { accept: "application/json" } }, { timeout: FETCH_TIMEOUT_MS, maxBytes: MAX_JWKS_BYTES });
  if (response.status !== 200) throw new Error("jwks_uri did not answer 200");
  if (!JSON_TYPE.test(response.headers.get("content-type") ?? "")) throw new Error("jwks_uri did not answer JSON");
  const parsed: unknown = JSON.parse(await response.text());
  if (jwksProblem(parsed)) throw new Error("jwks_uri answered an unusable key set");
  return parsed as JSONWebKeySet;
}

const fetchFailed = () => oauthError("BAD_REQUEST", "invalid_client", "failed to fetch client JWKS");

/**
 * The client's verification keys: its registered `jwks`, or its `jwks_uri` (checked again at
 * use, fetched through core's `boundedFetch`, cached 5 minutes, a stale copy kept for another
 * 5 when the server is down). `fresh` skips the cache (a key id not found: the client rotated).
 */
export async function clientJwks(ctx: AuthContext, options: ResolvedOAuthOptions, client: OAuthClientRow, fresh = false): Promise<JSONWebKeySet> {
  if (client.jwks) {
    const parsed: unknown = typeof client.jwks === "string" ? JSON.parse(client.jwks) : client.jwks;
    if (jwksProblem(parsed)) throw oauthError("BAD_REQUEST", "invalid_client", "client has no usable JWKS");
    return parsed as JSONWebKeySet;
  }
  if (!client.jwksUri) throw oauthError("BAD_REQUEST", "invalid_client", "client has no JWKS configured");
  const problem = jwksUriProblem(ctx, options, client.jwksUri);
  if (problem) throw oauthError("BAD_REQUEST", "invalid_client", "client jwks_uri is not trusted");
  const key = `${client.clientId}\n${client.jwksUri}`;
  const now = Date.now();
  const cached = cache.get(key);
  // A refetch for an unknown key id is allowed once per 10 s, so unsigned garbage cannot make
  // the provider fetch on every request.
  if (cached && now - cached.fetchedAt < (fresh ? 10_000 : CACHE_TTL_MS)) return cached.jwks;
  // Resolved right before the fetch: a trusted name now pointing inside is refused, stale copy or not.
  const url = new URL(client.jwksUri);
  if (!allowListed(url, options.privateHostAllowList) && (await privateResolutionProblem(url.hostname))) {
    ctx.logger.warn(`oauth-provider: jwks_uri of client ${client.clientId} not fetched: it does not resolve to a public address`);
    throw oauthError("BAD_REQUEST", "invalid_client", "client jwks_uri is not trusted");
  }
  try {
    const jwks = await download(client.jwksUri);
    remember(key, jwks, now);
    return jwks;
  } catch {
    if (cached && now - cached.fetchedAt < 2 * CACHE_TTL_MS) return cached.jwks;
    throw fetchFailed();
  }
}
