import { singleMember } from "../form-member.js";

/** The form members the token endpoint reads; unknown members are ignored (RFC 6749 §3.2), `resource` may repeat (RFC 8707 §2). */
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
    // RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once."
    const read = singleMember(name, body[name]);
    if ("description" in read) return { error: "invalid_request", description: read.description };
    if (read.value !== undefined) out[name] = read.value;
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
