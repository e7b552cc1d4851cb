import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";
import { DPOP_ALGORITHMS, DpopProofError, verifyDpopProof, type DpopReplayCheck } from "./dpop-proof.js";
import { bearerChallenge, dpopChallenge, protectedResourceMetadataUrl, type ChallengeInput } from "./resource-challenge.js";

export { bearerChallenge, dpopChallenge, protectedResourceMetadataUrl, type ChallengeInput } from "./resource-challenge.js";
export { accessTokenHash, DpopProofError, verifyDpopProof, type DpopProofCheck, type DpopReplayCheck, type VerifiedProof } from "./dpop-proof.js";

/**
 * `@latchkey/oauth-provider/resource-server`: what an API needs to accept the provider's
 * access tokens, with no dependency on Latchkey's server (jose only). JWT access tokens are
 * verified against the provider's JWKS (fetched once and cached by jose), opaque ones by RFC
 * 7662 introspection with the API's own client credentials; then audience, scopes and, for
 * DPoP-bound tokens, the proof (RFC 9449 §7). Failures carry the `WWW-Authenticate` challenge.
 */

export interface ResourceServerOptions {
  /** The provider's issuer (`iss` of its tokens), e.g. `https://auth.example.com/api/auth`. */
  issuer: string;
  /** The audience this API accepts (`aud` must name one of them; RFC 8707 resource identifiers). */
  audience: string | string[];
  /** The provider's JWK Set. @default `${issuer}/jwks` */
  jwksUrl?: string;
  /** RFC 7662 introspection for opaque tokens, with a confidential client of the provider. Without it opaque tokens are refused. */
  introspection?: { url?: string; clientId: string; clientSecret: string };
  /**
   * Accept introspected tokens that name no audience (opaque tokens issued without a
   * `resource`). Off by default: such a token is not meant for any API in particular.
   * @default false
   */
  acceptTokensWithoutAudience?: boolean;
  /** The RFC 9728 metadata URL put in challenges. @default derived from the first audience */
  resourceMetadata?: string;
  /** DPoP proof checks. `replay` should be shared by all instances of the API; the default store is per process. */
  dpop?: { proofMaxAgeSeconds?: number; signingAlgorithms?: string[]; replay?: DpopReplayCheck };
  /** The URL a request was sent to, as the client saw it (`htu`; behind a proxy). @default request.url */
  requestUrl?: (request: Request) => string;
  /** Milliseconds for JWKS and introspection requests. @default 5000 */
  timeout?: number;
  /** RFC 9728 metadata members: the scopes this API understands, its name, whether it takes only DPoP-bound tokens. */
  metadata?: { scopes_supported?: string[]; resource_name?: string; dpop_bound_access_tokens_required?: boolean; resource_documentation?: string };
}

/** What a verified request carries. */
export interface VerifiedAccess {
  token: string;
  /** `DPoP` for a DPoP-bound token, else `Bearer`. */
  scheme: "Bearer" | "DPoP";
  /** The JWT claims or the introspection answer. */
  claims: JWTPayload & Record<string, unknown>;
  scopes: string[];
  subject?: string | undefined;
  clientId?: string | undefined;
  /** The bound key thumbprint (`cnf.jkt`). */
  jkt?: string | undefined;
}

/** A refused request: `status` (400, 401 or 403), the OAuth `error` and the challenge. */
export class ResourceServerError extends Error {
  override readonly name = "ResourceServerError";
  constructor(
    readonly status: 400 | 401 | 403,
    readonly error: string | undefined,
    description: string,
    readonly wwwAuthenticate: string,
  ) {
    super(description);
  }

  /** The answer to send: JSON `{ error, error_description }` with the challenge. */
  toResponse(): Response {
    const body = this.error ? { error: this.error, error_description: this.message } : { error_description: this.message };
    return Response.json(body, { status: this.status, headers: { "WWW-Authenticate": this.wwwAuthenticate, "Cache-Control": "no-store" } });
  }
}

/** A per-process replay store for DPoP proof ids (entries dropped once expired). */
export function memoryReplayStore(): DpopReplayCheck {
  const seen = new Map<string, number>();
  return async (key, expiresAt) => {
    const now = Date.now();
    for (const [stored, until] of seen) if (until <= now) seen.delete(stored);
    if (seen.has(key)) return false;
    seen.set(key, expiresAt.getTime());
    return true;
  };
}

const hasJwtShape = (token: string): boolean => {
  try {
    decodeProtectedHeader(token);
    return token.split(".").length === 3;
  } catch {
    return false;
  }
};

const cnfJkt = (claims: Record<string, unknown>): string | undefined => {
  const cnf = claims.cnf as { jkt?: unknown } | undefined;
  return cnf && typeof cnf === "object" && typeof cnf.jkt === "string" && cnf.jkt ? cnf.jkt : undefined;
};

/** Builds the verifier of an API. */
export function createResourceServer(options: ResourceServerOptions) {
  const audiences = [options.audience].flat();
  if (!options.issuer || !audiences.length) throw new TypeError("createResourceServer: issuer and audience are required");
  const timeout = options.timeout ?? 5000;
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl ?? `${options.issuer}/jwks`), { timeoutDuration: timeout, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  const algorithms = options.dpop?.signingAlgorithms ?? DPOP_ALGORITHMS;
  const replay = options.dpop?.replay ?? memoryReplayStore();
  const resourceMetadata = options.resourceMetadata ?? (URL.canParse(audiences[0]!) ? protectedResourceMetadataUrl(audiences[0]!) : undefined);

  const refuse = (status: 400 | 401 | 403, challenge: ChallengeInput, dpop: boolean): ResourceServerError => {
    const input = { ...challenge, resourceMetadata };
    const header = dpop ? dpopChallenge({ ...input, algorithms }) : `${bearerChallenge(input)}${challenge.error ? "" : `, ${dpopChallenge({ algorithms })}`}`;
    return new ResourceServerError(status, challenge.error, challenge.description ?? "access token required", header);
  };
  const invalidToken = (description: string, dpop: boolean) => refuse(401, { error: "invalid_token", description }, dpop);

  async function verifyJwt(token: string, dpop: boolean): Promise<JWTPayload & Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: options.issuer, audience: audiences, typ: "at+jwt" });
      return payload as JWTPayload & Record<string, unknown>;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw invalidToken("access token expired", dpop);
      if (error instanceof errors.JOSEError) throw invalidToken("access token invalid", dpop);
      throw error;
    }
  }

  async function introspect(token: string, dpop: boolean): Promise<JWTPayload & Record<string, unknown>> {
    const config = options.introspection;
    if (!config) throw invalidToken("access token invalid", dpop);
    const credentials = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
    let answer: Record<string, unknown>;
    try {
      const response = await fetch(config.url ?? `${options.issuer}/oauth2/introspect`, {
        method: "POST",
        redirect: "manual",
        signal: AbortSignal.timeout(timeout),
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", authorization: `Basic ${btoa(credentials)}` },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }),
      });
      if (response.status !== 200) throw new Error(`introspection answered ${response.status}`);
      answer = (await response.json()) as Record<string, unknown>;
    } catch {
      throw new ResourceServerError(401, "invalid_token", "access token could not be checked", bearerChallenge({ error: "invalid_token", resourceMetadata }));
    }
    if (answer.active !== true) throw invalidToken("access token invalid", dpop);
    if (answer.iss !== undefined && answer.iss !== options.issuer) throw invalidToken("access token invalid", dpop);
    const aud = [answer.aud ?? []].flat().filter((value): value is string => typeof value === "string");
    if (aud.length ? !aud.some((value) => audiences.includes(value)) : !options.acceptTokensWithoutAudience) {
      throw invalidToken("access token not issued for this resource", dpop);
    }
    return answer as JWTPayload & Record<string, unknown>;
  }

  /**
   * Verifies the access token of `request` (RFC 6750 §2.1 `Authorization: Bearer`, RFC 9449
   * `Authorization: DPoP` + `DPoP` proof) and that it grants every scope in `required`.
   * Throws {@link ResourceServerError}.
   */
  async function verifyRequest(request: Request, required: { scopes?: string[] } = {}): Promise<VerifiedAccess> {
    const header = request.headers.get("authorization");
    const match = header ? /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim()) : null;
    if (!header) throw refuse(401, {}, false);
    if (!match) throw refuse(400, { error: "invalid_request", description: "malformed authorization header" }, false);
    const scheme = match[1]!.toLowerCase() === "dpop" ? "DPoP" : "Bearer";
    const token = match[2]!;
    const dpop = scheme === "DPoP";
    const claims = hasJwtShape(token) ? await verifyJwt(token, dpop) : await introspect(token, dpop);
    const jkt = cnfJkt(claims);
    if (!jkt && dpop) throw invalidToken("DPoP authorization requires a DPoP-bound access token", true);
    if (jkt) {
      if (!dpop) throw invalidToken("DPoP-bound access token requires the DPoP authorization scheme", true);
      const proof = request.headers.get("dpop");
      if (!proof) throw refuse(401, { error: "invalid_dpop_proof", description: "DPoP proof header is required" }, true);
      try {
        await verifyDpopProof({
          proof,
          method: request.method,
          urls: [options.requestUrl ? options.requestUrl(request) : request.url],
          accessToken: token,
          expectedJkt: jkt,
          maxAge: options.dpop?.proofMaxAgeSeconds,
          algorithms,
          replay,
        });
      } catch (error) {
        if (error instanceof DpopProofError) throw refuse(401, { error: "invalid_dpop_proof", description: error.message }, true);
        throw error;
      }
    }
    const scopes = typeof claims.scope === "string" ? claims.scope.split(" ").filter(Boolean) : [];
    const missing = (required.scopes ?? []).filter((scope) => !scopes.includes(scope));
    if (missing.length) {
      throw refuse(403, { error: "insufficient_scope", description: "access token lacks a required scope", scope: required.scopes!.join(" ") }, dpop);
    }
    const clientId = typeof claims.client_id === "string" ? claims.client_id : typeof claims.azp === "string" ? claims.azp : undefined;
    return { token, scheme, claims, scopes, subject: claims.sub, clientId, jkt };
  }

  const resource = audiences[0]!;
  /** RFC 9728 §2 protected-resource metadata of this API (its first audience is the resource identifier). */
  const metadata: Record<string, unknown> = {
    resource,
    authorization_servers: [options.issuer],
    bearer_methods_supported: ["header"],
    dpop_signing_alg_values_supported: algorithms,
    ...options.metadata,
  };
  const metadataPath = URL.canParse(resource) ? new URL(protectedResourceMetadataUrl(resource)).pathname : undefined;

  /**
   * Answers `GET`/`HEAD` of the RFC 9728 §3.1 well-known URL of this resource
   * (`/.well-known/oauth-protected-resource<resource path>`) with the metadata; null for any
   * other request, so an API can put it in front of its routes.
   */
  function metadataResponse(request: Request): Response | null {
    if (!metadataPath || new URL(request.url).pathname !== metadataPath) return null;
    if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
    const response = Response.json(metadata, { headers: { "Cache-Control": "public, max-age=300" } });
    return request.method === "HEAD" ? new Response(null, { headers: response.headers }) : response;
  }

  return { verifyRequest, metadata, metadataResponse };
}
