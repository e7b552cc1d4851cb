import { base64UrlEncode, type AuthContext } from "@latchkey/core";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";
import { ASSERTION_ALGORITHMS, clientJwks, verificationKeys } from "./client-jwks.js";
import { findClient } from "./clients.js";
import { issuerOf } from "./issuer.js";
import { oauthError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow } from "./schema.js";

/** RFC 7523 §2.2: the only `client_assertion_type` served. */
export const JWT_BEARER_ASSERTION = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

const invalid = (description: string) => oauthError("BAD_REQUEST", "invalid_client", description);
const badSignature = () => oauthError("UNAUTHORIZED", "invalid_client", "client assertion signature verification failed");

/**
 * The client an assertion names (`sub`, else `iss`), read without verifying it, so the request
 * can be matched to its code or token before anything is checked. Throws `invalid_client` for
 * an assertion that is not a JWT.
 */
export function assertedClientId(assertion: string, type: string | undefined, clientIdHint: string | undefined): string {
  if (type !== JWT_BEARER_ASSERTION) throw invalid("unsupported client_assertion_type");
  let header: ReturnType<typeof decodeProtectedHeader>;
  let payload: JWTPayload;
  try {
    header = decodeProtectedHeader(assertion);
  } catch {
    throw invalid("malformed client assertion: invalid JWT header");
  }
  if (!header.alg || !ASSERTION_ALGORITHMS.includes(header.alg)) throw invalid("unsupported assertion signing algorithm");
  try {
    payload = decodeJwt(assertion);
  } catch {
    throw invalid("malformed client assertion: invalid JWT payload");
  }
  const clientId = payload.sub ?? payload.iss;
  if (typeof clientId !== "string" || !clientId) throw invalid("client assertion must contain sub or iss claim identifying the client");
  if (clientIdHint && clientIdHint !== clientId) throw invalid("client_id in body does not match assertion sub/iss");
  return clientId;
}

/** The claims of a verified assertion that `consumeClientAssertion` checks. */
export interface ClientAssertionClaims {
  aud?: unknown;
  exp?: unknown;
  iat?: unknown;
  jti?: unknown;
}

/**
 * The checks every assertion-based client authentication needs once the signature is verified
 * (RFC 7523 §3), the ones `private_key_jwt` makes: `aud` names `expectedAudience` (rule 3); `exp`
 * is present, in the future and at most `assertionMaxLifetime` seconds away (rule 4); `iat`, when
 * present, at most that far in the past; and `jti` is present and spent here (rule 7), as a row in
 * `oauthClientAssertion` whose primary key is derived from `` `${namespace}:${jti}` `` (the
 * reference's derivation), so two nodes racing with one assertion both try the same insert and
 * the database lets one win. `namespace` scopes the `jti`, e.g. `` `${method}:${clientId}` ``.
 * Throws 400 `invalid_client` with the reference's descriptions.
 *
 * @example
 * // In an extension's client-authentication strategy, after verifying the signature:
 * await consumeClientAssertion(ctx, opts, { namespace: `${method}:${clientId}`, payload, expectedAudience });
 */
export async function consumeClientAssertion(
  ctx: { context: AuthContext } | AuthContext,
  opts: { assertionMaxLifetime?: number | undefined },
  params: { namespace: string; payload: ClientAssertionClaims; expectedAudience: string },
): Promise<void> {
  const { namespace, payload, expectedAudience } = params;
  const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud != null ? [payload.aud] : [];
  if (!audiences.includes(expectedAudience)) throw invalid("client assertion aud does not match the endpoint");
  const jti = checkLifetime(payload, opts.assertionMaxLifetime ?? 300);
  await spendAssertionId("context" in ctx ? ctx.context : ctx, `${namespace}:${jti}`, payload.exp as number);
}

/** Checks `exp`, `iat` and `jti` presence of a verified assertion (RFC 7523 §3); answers the `jti`. */
function checkLifetime(payload: ClientAssertionClaims, maxLifetime: number): string {
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.exp !== "number") throw invalid("client assertion must include exp claim");
  if (payload.exp <= now) throw invalid("client assertion has expired");
  if (payload.exp - now > maxLifetime) throw invalid(`client assertion exp is too far in the future (max ${maxLifetime}s)`);
  if (typeof payload.iat === "number" && now - payload.iat > maxLifetime) {
    throw invalid(`client assertion iat is too far in the past (max ${maxLifetime}s)`);
  }
  if (typeof payload.jti !== "string" || !payload.jti) throw invalid("client assertion must include jti claim");
  return payload.jti;
}

/** Spends one namespaced `jti` (see `consumeClientAssertion`). */
async function spendAssertionId(ctx: AuthContext, key: string, exp: number): Promise<void> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  const id = base64UrlEncode(new Uint8Array(digest).slice(0, 24));
  try {
    await ctx.adapter.create({ model: "oauthClientAssertion", data: { id, expiresAt: new Date(exp * 1000) } });
  } catch (error) {
    const used = await ctx.adapter.findOne({ model: "oauthClientAssertion", where: [{ field: "id", value: id }] }).catch(() => null);
    if (used) throw invalid("client assertion jti has already been used");
    throw error;
  }
  // Expired ids can never be presented again (their assertion is expired): sweep now and then.
  if (Math.random() < 0.02) {
    await ctx.adapter.deleteMany({ model: "oauthClientAssertion", where: [{ field: "expiresAt", value: new Date(), operator: "lt" }] }).catch(() => 0);
  }
}

/**
 * Authenticates a `private_key_jwt` client (RFC 7523 §2.2, OIDC Core §9): signature by one of
 * the client's keys, `iss` = `sub` = client id, `aud` the endpoint's URL or the issuer, a
 * lifetime of at most `assertionMaxLifetime`, and a `jti` never seen before.
 */
export async function verifyClientAssertion(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  clientId: string,
  assertion: string,
  endpointUrl: string,
): Promise<OAuthClientRow> {
  const client = await findClient(ctx, clientId);
  if (!client) throw invalid("unknown client");
  if (client.disabled) throw invalid("client is disabled");
  if (client.tokenEndpointAuthMethod !== "private_key_jwt") throw invalid("client is not registered for private_key_jwt authentication");
  const audience = [...new Set([endpointUrl, issuerOf(ctx)])];
  const verifyWith = async (fresh: boolean) =>
    (await jwtVerify(assertion, createLocalJWKSet(verificationKeys(await clientJwks(ctx, options, client, fresh))), {
      issuer: clientId,
      subject: clientId,
      audience,
      algorithms: ASSERTION_ALGORITHMS,
    })).payload;
  let payload: JWTPayload;
  try {
    payload = await verifyWith(false);
  } catch (error) {
    if (!(error instanceof errors.JOSEError)) throw error;
    if (!(error instanceof errors.JWKSNoMatchingKey) || !client.jwksUri) {
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === "aud") throw invalid("client assertion aud does not match the endpoint");
      if (error instanceof errors.JWTExpired) throw invalid("client assertion has expired");
      throw badSignature();
    }
    try {
      payload = await verifyWith(true);
    } catch (retry) {
      if (retry instanceof errors.JOSEError) throw badSignature();
      throw retry;
    }
  }
  const jti = checkLifetime(payload, options.assertionMaxLifetime ?? 300);
  await spendAssertionId(ctx, `private_key_jwt:${clientId}:${jti}`, payload.exp!);
  return client;
}
