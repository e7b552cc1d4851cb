import { singleMember } from "../form-member.js";
import { oauthError } from "../oauth-error.js";

/** The form members of introspection and revocation requests (RFC 7662 §2.1, RFC 7009 §2.1). */
export interface CredentialBody {
  token?: string;
  token_type_hint?: string;
  client_id?: string;
  client_secret?: string;
  client_assertion?: string;
  client_assertion_type?: string;
}

const MEMBERS = ["token", "token_type_hint", "client_id", "client_secret", "client_assertion", "client_assertion_type"] as const;

/** Reads the members as strings; a member of another type is `invalid_request`. */
export function readCredentialBody(raw: unknown): CredentialBody {
  const body = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const out: CredentialBody = {};
  for (const name of MEMBERS) {
    // RFC 6749 §3.1: no member more than once (the route reads every value to see a repeat).
    const read = singleMember(name, body[name]);
    if ("description" in read) throw oauthError("BAD_REQUEST", "invalid_request", read.description);
    if (read.value !== undefined) out[name] = read.value;
  }
  if (out.token) out.token = out.token.replace(/^(Bearer|DPoP) +/i, "");
  if (out.token_type_hint !== "access_token" && out.token_type_hint !== "refresh_token") delete out.token_type_hint;
  return out;
}
