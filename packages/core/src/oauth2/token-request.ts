import { BetterAuthError } from "../errors/api-error.js";
import { boundedFetch, type BoundedFetchOptions } from "../net/bounded-fetch.js";
import { applyClientAuth, type ClientCredentials } from "./client-auth.js";
import type { OAuth2Tokens } from "./types.js";

/**
 * A token endpoint refused a request (RFC 6749 §5.2). `error` is the server's code
 * (`invalid_grant`, …); the message never carries tokens or the response body.
 */
export class OAuthTokenError extends BetterAuthError {
  readonly error: string;
  readonly status: number;
  constructor(error: string, status: number) {
    super(`Token endpoint answered ${status} ${error}`);
    this.name = "OAuthTokenError";
    this.error = error;
    this.status = status;
  }
}

/**
 * Parameters a caller's extra token parameters may never set: the grant itself, the PKCE
 * verifier, the redirect URI and every client-authentication field (spec, Social sign-in 7),
 * plus prototype keys a parsed JSON object could carry.
 */
const RESERVED_TOKEN_PARAMS = new Set([
  "grant_type",
  "code",
  "code_verifier",
  "redirect_uri",
  "refresh_token",
  "client_id",
  "client_secret",
  "client_assertion",
  "client_assertion_type",
  "__proto__",
  "constructor",
  "prototype",
]);

/** Seconds from a token response (a number, or a numeric string some providers send). */
function seconds(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** RFC 6749 §3.3: `scope` is space-delimited; some providers send an array. */
export function parseScopeField(scope: unknown): string[] {
  if (Array.isArray(scope))
    return scope.filter((s): s is string => typeof s === "string" && s.trim() !== "").map((s) => s.trim());
  return typeof scope === "string" ? scope.split(/\s+/).filter(Boolean) : [];
}

/** Turns a token response (RFC 6749 §5.1) into {@link OAuth2Tokens}. */
export function toOAuth2Tokens(data: Record<string, unknown>, now = Date.now()): OAuth2Tokens {
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const expiresIn = seconds(data.expires_in);
  const refreshExpiresIn = seconds(data.refresh_token_expires_in);
  return {
    tokenType: str(data.token_type),
    accessToken: str(data.access_token),
    refreshToken: str(data.refresh_token),
    accessTokenExpiresAt: expiresIn ? new Date(now + expiresIn * 1000) : undefined,
    refreshTokenExpiresAt: refreshExpiresIn ? new Date(now + refreshExpiresIn * 1000) : undefined,
    scopes: parseScopeField(data.scope),
    idToken: str(data.id_token),
    raw: data,
  };
}

/** One token-endpoint request: the grant parameters, client credentials and extras. */
export interface TokenRequest extends ClientCredentials {
  tokenEndpoint: string;
  params: Record<string, string | undefined>;
  extraParams?: Record<string, string> | undefined;
  headers?: Record<string, string> | undefined;
  /** Time and size limits of the request. @default 10 s, 1 MiB */
  fetchOptions?: BoundedFetchOptions | undefined;
}

/**
 * POSTs a form-encoded token request (RFC 6749 §4.1.3, §6) and returns its tokens. An error
 * answer (RFC 6749 §5.2) throws {@link OAuthTokenError}; a 200 without an `access_token`
 * (required by §5.1) is refused as well.
 */
export async function requestTokens(request: TokenRequest): Promise<OAuth2Tokens> {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(request.extraParams ?? {})) {
    if (!RESERVED_TOKEN_PARAMS.has(key) && typeof value === "string") body.set(key, value);
  }
  for (const [key, value] of Object.entries(request.params)) if (value !== undefined) body.set(key, value);
  const headers: Record<string, string> = {
    ...request.headers,
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  await applyClientAuth(body, headers, request, request.tokenEndpoint);
  const response = await boundedFetch(
    request.tokenEndpoint,
    { method: "POST", headers, body },
    request.fetchOptions,
  );
  const text = await response.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const json =
    typeof data === "object" && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : undefined;
  if (!response.ok) {
    const code =
      typeof json?.error === "string" && /^[\x20-\x7e]{1,100}$/.test(json.error)
        ? json.error
        : "invalid_response";
    throw new OAuthTokenError(code, response.status);
  }
  if (!json || typeof json.access_token !== "string" || !json.access_token) {
    throw new OAuthTokenError("invalid_token_response", response.status);
  }
  return toOAuth2Tokens(json);
}

/** The authorization-code grant (RFC 6749 §4.1.3) with the PKCE verifier (RFC 7636 §4.5). */
export function validateAuthorizationCode(
  input: ClientCredentials & {
    tokenEndpoint: string;
    code: string;
    redirectURI: string;
    codeVerifier?: string | undefined;
    deviceId?: string | undefined;
    additionalParams?: Record<string, string> | undefined;
    headers?: Record<string, string> | undefined;
    fetchOptions?: BoundedFetchOptions | undefined;
  },
): Promise<OAuth2Tokens> {
  return requestTokens({
    ...input,
    params: {
      grant_type: "authorization_code",
      code: input.code,
      // RFC 6749 §4.1.3: must be identical to the redirect_uri of the authorization request.
      redirect_uri: input.redirectURI,
      code_verifier: input.codeVerifier,
      device_id: input.deviceId,
    },
    extraParams: input.additionalParams,
  });
}

/**
 * The refresh-token grant (RFC 6749 §6). The answer may omit `refresh_token` (the old one
 * stays valid) or rotate it; callers keep the old one when none comes back.
 */
export function refreshAccessToken(
  input: ClientCredentials & {
    tokenEndpoint: string;
    refreshToken: string;
    extraParams?: Record<string, string> | undefined;
    fetchOptions?: BoundedFetchOptions | undefined;
  },
): Promise<OAuth2Tokens> {
  return requestTokens({
    ...input,
    params: { grant_type: "refresh_token", refresh_token: input.refreshToken },
  });
}
