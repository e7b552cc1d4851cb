import { generateCodeChallenge } from "./pkce.js";

/**
 * Authorization-request parameters the framework sets itself and callers may never override
 * through `additionalParams` (spec, Social sign-in 7): overriding `state`, the PKCE pair,
 * `nonce` or `redirect_uri` would break the binding between request and callback, and
 * `client_id` / `scope` would change who is asked for what. The reference's list.
 */
export const RESERVED_AUTHORIZATION_PARAMS = [
  "state",
  "client_id",
  "redirect_uri",
  "response_type",
  "code_challenge",
  "code_challenge_method",
  "nonce",
  "scope",
] as const;

const RESERVED = new Set<string>(RESERVED_AUTHORIZATION_PARAMS);

/** Whether a key may be passed through `additionalParams`. */
export const isReservedAuthorizationParam = (key: string): boolean => RESERVED.has(key);

/** Inputs of {@link createAuthorizationURL}. */
export interface AuthorizationURLInput {
  authorizationEndpoint: string;
  clientId: string;
  redirectURI: string;
  state: string;
  /** When given, the request carries its S256 challenge (RFC 7636 §4.3). */
  codeVerifier?: string | undefined;
  scopes?: string[] | undefined;
  /** @default " " (RFC 6749 §3.3) */
  scopeJoiner?: string | undefined;
  /** @default "code" */
  responseType?: string | undefined;
  responseMode?: string | undefined;
  prompt?: string | undefined;
  display?: string | undefined;
  loginHint?: string | undefined;
  accessType?: string | undefined;
  nonce?: string | undefined;
  /** Extra parameters; reserved keys are skipped, never applied. */
  additionalParams?: Record<string, string> | undefined;
}

/**
 * Builds an authorization request URL (RFC 6749 §4.1.1, OIDC Core §3.1.2.1). Existing query
 * parameters of the endpoint are kept (§3.1: "MAY include a query component … which MUST be
 * retained"); the protocol parameters are set over them.
 */
export async function createAuthorizationURL(input: AuthorizationURLInput): Promise<URL> {
  if (!input.clientId) throw new TypeError("An OAuth provider needs a clientId.");
  const url = new URL(input.authorizationEndpoint);
  const params = url.searchParams;
  // Extra parameters first, so that nothing below can be shadowed by them even if the
  // reserved list were ever incomplete.
  for (const [key, value] of Object.entries(input.additionalParams ?? {})) {
    if (!RESERVED.has(key) && typeof value === "string") params.set(key, value);
  }
  params.set("response_type", input.responseType ?? "code");
  params.set("client_id", input.clientId);
  // RFC 6749 §10.12: the state binds the response to this browser's request (CSRF).
  params.set("state", input.state);
  if (input.scopes?.length) params.set("scope", input.scopes.join(input.scopeJoiner ?? " "));
  else params.delete("scope");
  params.set("redirect_uri", input.redirectURI);
  if (input.display) params.set("display", input.display);
  if (input.loginHint) params.set("login_hint", input.loginHint);
  if (input.prompt) params.set("prompt", input.prompt);
  if (input.accessType) params.set("access_type", input.accessType);
  if (input.responseMode) params.set("response_mode", input.responseMode);
  // OIDC Core §3.1.2.1: the nonce ties the ID token to this request (replay protection).
  if (input.nonce) params.set("nonce", input.nonce);
  else params.delete("nonce");
  if (input.codeVerifier) {
    // RFC 7636 §4.3: only the challenge travels through the browser; the verifier stays in
    // server-side state until the code exchange.
    params.set("code_challenge", await generateCodeChallenge(input.codeVerifier));
    params.set("code_challenge_method", "S256");
  } else {
    params.delete("code_challenge");
    params.delete("code_challenge_method");
  }
  return url;
}
