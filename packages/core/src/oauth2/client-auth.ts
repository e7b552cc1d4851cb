import { importJWK, SignJWT, type JWK } from "jose";
import { base64Encode, utf8Encode } from "../crypto/encoding.js";
import type { Awaitable } from "./types.js";

/** What a `private_key_jwt` assertion is made for. */
export interface ClientAssertionContext {
  clientId: string;
  tokenEndpoint: string;
  grantType: string;
}

/**
 * How the client authenticates at the token endpoint (RFC 6749 §2.3, OIDC Core §9):
 * the secret in HTTP Basic or in the form, none (public client), or a signed JWT assertion
 * (RFC 7523).
 */
export type TokenEndpointAuth =
  | { method: "client_secret_basic" }
  | { method: "client_secret_post" }
  | { method: "none" }
  | { method: "private_key_jwt"; getClientAssertion: (context: ClientAssertionContext) => Awaitable<string> };

/** The client credentials a token request is authenticated with. */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string | undefined;
  /** @default client_secret_post with a secret, none without (the reference's default) */
  tokenEndpointAuth?: TokenEndpointAuth | undefined;
}

const JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/**
 * RFC 6749 §2.3.1: client id and secret are each `application/x-www-form-urlencoded` before
 * they are joined with `:` and base64-encoded; skipping this breaks secrets holding `:`, `+`
 * or non-ASCII characters.
 */
function basicCredentials(clientId: string, clientSecret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${base64Encode(utf8Encode(`${encode(clientId)}:${encode(clientSecret)}`))}`;
}

/**
 * Adds client authentication to a token request body and headers. A misconfiguration (a
 * secret with `none`, no secret with a secret method) throws a `TypeError` rather than send
 * a request the server must refuse.
 */
export async function applyClientAuth(
  body: URLSearchParams,
  headers: Record<string, string>,
  credentials: ClientCredentials,
  tokenEndpoint: string,
): Promise<void> {
  const { clientId, clientSecret } = credentials;
  if (!clientId) throw new TypeError("Token requests need a clientId.");
  const auth = credentials.tokenEndpointAuth ?? { method: clientSecret ? "client_secret_post" : "none" };
  switch (auth.method) {
    case "client_secret_basic":
      if (!clientSecret) throw new TypeError("client_secret_basic needs a clientSecret.");
      // RFC 6749 §2.3.1: with Basic, the credentials must not also be in the body.
      headers.authorization = basicCredentials(clientId, clientSecret);
      return;
    case "client_secret_post":
      if (!clientSecret) throw new TypeError("client_secret_post needs a clientSecret.");
      body.set("client_id", clientId);
      body.set("client_secret", clientSecret);
      return;
    case "none":
      if (clientSecret)
        throw new TypeError("Token endpoint authentication `none` cannot be combined with a clientSecret.");
      // RFC 6749 §4.1.3: a public client identifies itself with client_id in the body.
      body.set("client_id", clientId);
      return;
    case "private_key_jwt": {
      if (clientSecret) throw new TypeError("private_key_jwt cannot be combined with a clientSecret.");
      const grantType = body.get("grant_type") ?? "";
      body.set("client_id", clientId);
      body.set("client_assertion_type", JWT_BEARER);
      body.set("client_assertion", await auth.getClientAssertion({ clientId, tokenEndpoint, grantType }));
      return;
    }
  }
}

/**
 * A `private_key_jwt` assertion signer (RFC 7523 §3): `iss` = `sub` = client id, `aud` = the
 * token endpoint, a 2-minute lifetime and a fresh `jti` per request so a captured assertion
 * cannot be replayed where the server tracks them.
 */
export function privateKeyJwt(options: {
  privateKeyJwk: JWK;
  /** @default the JWK's `alg`, else RS256 */
  algorithm?: string;
  kid?: string;
}): TokenEndpointAuth {
  const alg = options.algorithm ?? options.privateKeyJwk.alg ?? "RS256";
  if (alg === "none" || alg.startsWith("HS"))
    throw new TypeError("private_key_jwt needs an asymmetric algorithm.");
  const kid = options.kid ?? options.privateKeyJwk.kid;
  let key: ReturnType<typeof importJWK> | undefined;
  return {
    method: "private_key_jwt",
    async getClientAssertion({ clientId, tokenEndpoint }) {
      key ??= importJWK(options.privateKeyJwk, alg);
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({})
        .setProtectedHeader(kid ? { alg, typ: "JWT", kid } : { alg, typ: "JWT" })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(tokenEndpoint)
        .setIssuedAt(now)
        .setExpirationTime(now + 120)
        .setJti(crypto.randomUUID())
        .sign(await key);
    },
  };
}
