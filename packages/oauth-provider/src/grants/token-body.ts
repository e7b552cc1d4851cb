/** The form members the token endpoint reads; unknown members are ignored (RFC 6749 §3.2). */
export interface TokenBody {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
  client_assertion?: string;
  client_assertion_type?: string;
  code?: string;
  code_verifier?: string;
  redirect_uri?: string;
  refresh_token?: string;
  scope?: string;
  resource?: string[];
}

const MEMBERS = [
  "grant_type", "client_id", "client_secret", "client_assertion", "client_assertion_type",
  "code", "code_verifier", "redirect_uri", "refresh_token", "scope",
] as const;

/** The body as strings, or the OAuth error of the first member of the wrong type. */
export function readTokenBody(raw: unknown): TokenBody | { error: string; description: string } {
  const body = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const out: TokenBody = {};
  for (const name of MEMBERS) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== "string") return { error: "invalid_request", description: `${name} must be a string` };
    if (value !== "") out[name] = value;
  }
  if (body.resource !== undefined) {
    const list = [body.resource].flat();
    for (const value of list) {
      if (typeof value !== "string" || !URL.canParse(value) || value.includes("#")) {
        return { error: "invalid_target", description: "resource must be an absolute URI without a fragment" };
      }
    }
    out.resource = list as string[];
  }
  return out;
}
