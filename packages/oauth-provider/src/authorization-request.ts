/** The parameters of an authorization request the provider reads (RFC 6749 §4.1.1, OIDC Core §3.1.2.1, RFC 7636, RFC 8707). */
export interface AuthorizationRequest {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  nonce?: string;
  prompt?: string;
  max_age?: number;
  login_hint?: string;
  id_token_hint?: string;
  acr_values?: string;
  display?: string;
  ui_locales?: string;
  claims?: string;
  response_mode?: string;
  resource?: string | string[];
  request?: string;
  request_uri?: string;
  dpop_jkt?: string;
}

const STRING_PARAMS = [
  "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method",
  "nonce", "prompt", "login_hint", "id_token_hint", "acr_values", "display", "ui_locales", "claims",
  "response_mode", "request", "request_uri", "dpop_jkt",
] as const;

const PROMPTS = new Set(["none", "consent", "login", "create", "select_account"]);

/** A parse failure: the OAuth error and its public description. */
export interface RequestProblem {
  error: string;
  description: string;
}

/**
 * Reads the known parameters (unknown ones are dropped, as the reference's schema does) and
 * checks their shapes: each is a single string (a repeated one is refused, RFC 6749 §3.1),
 * `prompt` holds known values with `none` alone, `max_age` is a non-negative integer, each
 * `resource` an absolute URI without fragment.
 */
export function parseAuthorizationRequest(raw: Record<string, unknown>): AuthorizationRequest | RequestProblem {
  const request: AuthorizationRequest = {};
  for (const name of STRING_PARAMS) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== "string") {
      return { error: name === "response_type" ? "unsupported_response_type" : "invalid_request", description: `${name} must not appear more than once` };
    }
    request[name] = value;
  }
  if (!request.client_id) return { error: "invalid_request", description: "client_id is required" };
  if (request.response_type !== undefined && request.response_type !== "code") {
    return { error: "unsupported_response_type", description: "response_type must be one of: code" };
  }
  if (request.code_challenge_method !== undefined && request.code_challenge_method !== "S256") {
    return { error: "invalid_request", description: "code_challenge_method must be one of: S256" };
  }
  if (request.prompt !== undefined) {
    const tokens = request.prompt.split(" ").filter(Boolean);
    if (!tokens.length || tokens.some((token) => !PROMPTS.has(token))) return { error: "invalid_request", description: "prompt: invalid prompt value" };
    if (tokens.includes("none") && tokens.length > 1) return { error: "invalid_request", description: "prompt: none must not be combined with other values" };
  }
  if (raw.max_age !== undefined) {
    const age = typeof raw.max_age === "string" && raw.max_age.trim() ? Number(raw.max_age) : Number.NaN;
    if (!Number.isInteger(age) || age < 0) return { error: "invalid_request", description: "max_age must be a non-negative integer" };
    request.max_age = age;
  }
  if (raw.resource !== undefined) {
    const list = [raw.resource].flat();
    for (const value of list) {
      if (typeof value !== "string" || !URL.canParse(value) || value.includes("#")) {
        return { error: "invalid_target", description: "resource must be an absolute URI without a fragment" };
      }
    }
    request.resource = list.length === 1 ? (list[0] as string) : (list as string[]);
  }
  if (request.dpop_jkt !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(request.dpop_jkt)) {
    return { error: "invalid_request", description: "dpop_jkt must be a base64url-encoded SHA-256 JWK thumbprint" };
  }
  return request;
}

/** The prompt values of a request. */
export const promptsOf = (request: AuthorizationRequest): Set<string> => new Set((request.prompt ?? "").split(" ").filter(Boolean));

/** The request as query parameters, arrays repeated (what codes store and pages receive). */
export function requestToParams(request: AuthorizationRequest): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) {
    if (value === undefined || value === null) continue;
    for (const item of [value].flat()) params.append(key, String(item));
  }
  return params;
}

/** The `resource` parameter as a list (RFC 8707 §2: it may repeat). */
export const resourcesOf = (value: string | string[] | undefined): string[] | undefined =>
  value === undefined ? undefined : [value].flat();

/** Query parameters as a record: a repeated name becomes a list (as the authorization request reads them). */
export function paramsToRecord(params: URLSearchParams): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    record[key] = values.length > 1 ? values : values[0];
  }
  return record;
}
