import { APIError, endpoint, getSessionFromRequest } from "@latchkey/core";
import { NO_STORE, noStoreError, withNoStore } from "../oauth-error.js";
import { sessionReference } from "../client-owner.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { assertClientPrivilege } from "../client-privileges.js";
import { authorizeInitialAccessToken } from "../initial-access-token.js";
import { readClientMetadata } from "../registration-body.js";
import { registerClient } from "../registration.js";

/**
 * RFC 7591 dynamic registration (`allowDynamicClientRegistration`): with a session, an initial
 * access token (`validateInitialAccessToken`), or open when `allowUnauthenticatedClientRegistration`. 201 with the client information; every answer
 * is `no-store` (spec rule 9), errors included.
 */
export function registerEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/register", { method: "POST" }, async (ctx) => {
    try {
      if (!options.allowDynamicClientRegistration) throw noStoreError("FORBIDDEN", "access_denied", "Client registration is disabled");
      const metadata = readClientMetadata(ctx.body);
      const session = await getSessionFromRequest(ctx);
      const token = session ? undefined : await authorizeInitialAccessToken(options, ctx.headers, metadata);
      if (!session && !token && !options.allowUnauthenticatedClientRegistration) {
        // The reference's body has no `error` member here; the challenge is in the header.
        throw new APIError("UNAUTHORIZED", { error_description: "Authentication required for client registration" }, { "WWW-Authenticate": "Bearer", ...NO_STORE });
      }
      if (!session && !token && metadata.grant_types?.includes("client_credentials")) {
        throw noStoreError("BAD_REQUEST", "invalid_client_metadata", "client_credentials grant requires authenticated registration");
      }
      if (session) await assertClientPrivilege(ctx, options, session, "create");
      const referenceId = token?.referenceId ?? (session ? await sessionReference(options, session) : undefined);
      const owner = referenceId ? { referenceId } : { userId: session?.session.userId };
      const answer = await registerClient(ctx.context, options, metadata, "dynamic", owner);
      for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
      ctx.status = 201;
      return answer;
    } catch (error) {
      throw withNoStore(error);
    }
  });
}
