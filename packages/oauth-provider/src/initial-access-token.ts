import { APIError, type StatusName } from "@latchkey/core";
import { NO_STORE } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { ClientMetadata } from "./registration-body.js";

/** An RFC 6750 §3 Bearer challenge for a registration's initial access token. */
const bearerError = (status: StatusName, error: string, description: string) =>
  new APIError(status, { error, error_description: description }, { "WWW-Authenticate": `Bearer error="${error}"`, ...NO_STORE });

/** The Bearer credentials of an Authorization header; undefined for another scheme. */
function bearerCredentials(header: string | null): string | undefined {
  if (!header) return undefined;
  const [scheme, credentials, ...extra] = header.trim().split(/\s+/);
  if (scheme?.toLowerCase() !== "bearer") return undefined;
  if (!credentials || extra.length > 0) throw bearerError("BAD_REQUEST", "invalid_request", "Malformed initial access token Authorization header");
  return credentials;
}

/**
 * RFC 7591 §3: the registration's initial access token, checked by `validateInitialAccessToken`.
 * Undefined when no Bearer token was sent (session or open registration may still apply);
 * a token without a validator, or one it refuses, is 401 `invalid_token` with a challenge.
 */
export async function authorizeInitialAccessToken(
  options: ResolvedOAuthOptions,
  headers: Headers,
  metadata: ClientMetadata,
): Promise<{ referenceId?: string } | undefined> {
  const token = bearerCredentials(headers.get("authorization"));
  if (!token) return undefined;
  const refused = () => bearerError("UNAUTHORIZED", "invalid_token", "Invalid initial access token");
  if (!options.validateInitialAccessToken) throw refused();
  let authorization: { referenceId?: string } | false;
  try {
    authorization = await options.validateInitialAccessToken({ initialAccessToken: token, headers, clientMetadata: { ...metadata } });
  } catch (error) {
    if (error instanceof APIError) throw error;
    throw new APIError("INTERNAL_SERVER_ERROR", { error: "server_error", error_description: "Initial access token validation failed" });
  }
  if (!authorization) throw refused();
  return authorization;
}
