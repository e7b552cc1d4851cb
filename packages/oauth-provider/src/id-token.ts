import { base64UrlEncode, getService, utf8Encode, type AuthContext, type User } from "@latchkey/core";
import { SignJWT } from "jose";
import { JWT_SIGNER } from "@latchkey/jwt";
import { clientMetadata } from "./clients.js";
import { collectExtensionClaims, extensionContext } from "./extensions.js";
import { jwtDisabled, jwtOptions, tokenIssuer } from "./issuer.js";
import { decryptClientSecret } from "./token-hash.js";
import type { ResolvedOAuthOptions } from "./options.js";
import { subjectFor } from "./subject.js";
import type { OAuthClientRow } from "./schema.js";

/** Claims the provider owns in an ID token; `customIdTokenClaims` cannot set them (spec rule 2). */
const RESERVED = new Set([
  "iss", "sub", "aud", "exp", "nbf", "iat", "jti", "auth_time", "nonce", "acr", "amr", "azp", "sid", "at_hash", "c_hash", "s_hash",
]);

/**
 * OIDC Core §3.1.3.6 `at_hash`: the left half of the access token's hash under the hash of the
 * ID token's algorithm (SHA-512 for EdDSA/Ed25519, as the reference and RFC 8037 usage do).
 */
export async function accessTokenHash(token: string, alg: string): Promise<string> {
  const hash = alg === "EdDSA" || alg.endsWith("512") ? "SHA-512" : alg.endsWith("384") ? "SHA-384" : "SHA-256";
  const digest = new Uint8Array(await crypto.subtle.digest(hash, utf8Encode(token)));
  return base64UrlEncode(digest.slice(0, digest.length / 2));
}

/** What an ID token is issued for. */
export interface IdTokenInput {
  user: User;
  client: OAuthClientRow;
  scopes: string[];
  nonce?: string | undefined;
  sessionId?: string | undefined;
  authTime?: Date | undefined;
  accessToken: string;
  /** What extension claim contributors are told about the grant. */
  grantType?: string | undefined;
  referenceId?: string | undefined;
  resources?: string[] | undefined;
  /** Per-issuance claims of an extension grant. */
  extraClaims?: Record<string, unknown> | undefined;
}

/**
 * An ID token signed with the jwt plugin's current key. Spec rule 2: protocol claims only,
 * `acr` "0", no profile or email claims (those come from userinfo); `sid` only for clients
 * that take part in logout. With `disableJwtPlugin` it is signed HS256 with the client's
 * secret (OIDC Core §10.1, as the reference), and a client without a secret gets none.
 */
export async function createIdToken(ctx: AuthContext, options: ResolvedOAuthOptions, input: IdTokenInput): Promise<string | undefined> {
  const iat = Math.floor(Date.now() / 1000);
  const hmac = jwtDisabled(ctx);
  const alg = hmac ? "HS256" : (jwtOptions(ctx)?.keyPairConfig.alg ?? "EdDSA");
  const custom = options.customIdTokenClaims
    ? await options.customIdTokenClaims({ user: input.user, scopes: input.scopes, metadata: clientMetadata(input.client) })
    : {};
  const own = { ...input.extraClaims, ...custom };
  const extensions = await collectExtensionClaims(
    ctx,
    (extension) => extension.claims?.idToken,
    {
      ctx: extensionContext(ctx), opts: options, user: input.user, client: input.client, scopes: input.scopes, grantType: input.grantType,
      referenceId: input.referenceId, sessionId: input.sessionId, resources: input.resources, metadata: clientMetadata(input.client),
    },
    new Set([...RESERVED, ...Object.keys(own)]),
  );
  // Extensions add claims; the provider's own (and `customIdTokenClaims`) are never replaced.
  const extra = Object.fromEntries(Object.entries({ ...extensions, ...own }).filter(([name, value]) => !RESERVED.has(name) && value !== undefined));
  const emitSid = Boolean(input.client.enableEndSession || input.client.backchannelLogoutUri);
  const payload = {
    auth_time: input.authTime ? Math.floor(input.authTime.getTime() / 1000) : undefined,
    acr: "0",
    ...extra,
    at_hash: await accessTokenHash(input.accessToken, alg),
    iss: tokenIssuer(ctx),
    sub: await subjectFor(ctx, options, input.user.id, input.client),
    aud: input.client.clientId,
    nonce: input.nonce,
    iat,
    exp: iat + options.idTokenExpiresIn,
    sid: emitSid ? input.sessionId : undefined,
  };
  const claims = Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined));
  if (!hmac) return getService(ctx, JWT_SIGNER).sign(claims);
  if (!input.client.clientSecret) return undefined;
  const secret = await decryptClientSecret(options, input.client.clientSecret, ctx);
  return new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(utf8Encode(secret));
}
