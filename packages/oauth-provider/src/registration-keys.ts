import type { AuthContext } from "@latchkey/core";
import { jwksProblem, jwksUriProblem } from "./client-jwks.js";
import { noStoreError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { ClientMetadata } from "./registration-body.js";

const invalid = (description: string) => noStoreError("BAD_REQUEST", "invalid_client_metadata", description);

/**
 * RFC 7591 §2 `jwks` / `jwks_uri` (the reference's checks): never both; a key set of public
 * asymmetric keys only; a `jwks_uri` on https, trusted, and not private unless allow-listed;
 * and `private_key_jwt` needs one of them.
 */
export function checkClientKeys(ctx: AuthContext, options: ResolvedOAuthOptions, client: ClientMetadata): void {
  if (client.jwks && client.jwks_uri) throw invalid("jwks and jwks_uri are mutually exclusive");
  if (client.jwks_uri) {
    const problem = jwksUriProblem(ctx, options, client.jwks_uri);
    if (problem) throw invalid(problem);
  }
  if (client.jwks) {
    const problem = jwksProblem(client.jwks);
    if (problem) throw invalid(problem);
  }
  if (client.token_endpoint_auth_method === "private_key_jwt" && !client.jwks && !client.jwks_uri) {
    throw invalid("private_key_jwt requires either jwks or jwks_uri");
  }
}
