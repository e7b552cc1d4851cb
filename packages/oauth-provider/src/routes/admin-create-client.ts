import { endpoint, getSessionFromRequest } from "@latchkey/core";
import { assertClientPrivilege } from "../client-privileges.js";
import { sessionReference } from "../client-owner.js";
import { noStoreError, NO_STORE, withNoStore } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { readClientMetadata } from "../registration-body.js";
import { registerClient } from "../registration.js";
import { quoted } from "../echo.js";

const USER_SCOPES = new Set(["openid", "profile", "email", "offline_access"]);

/** Reads an optional boolean member. */
function flag(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw noStoreError("BAD_REQUEST", "invalid_client_metadata", `${name} must be a boolean`);
  return value;
}

/**
 * Server-only `auth.api.adminCreateOAuthClient({ body })`: registration with the settings only
 * an operator may choose (`client_credentials_scopes`, `skip_consent`, `require_pkce`,
 * `enable_end_session`). The answer adds `client_credentials_scopes`. Called with a session
 * (`headers`), the client is owned as the reference owns it: by the `clientReference` the session
 * names, else by the user, after `clientPrivileges` allows `create` (and
 * `configure-client-credentials-scopes` when scopes are given). Without one, the operator's
 * client has no owner (the reference answers 401; divergence row 140).
 */
export function adminCreateClientEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/admin/oauth2/create-client", { method: "POST", serverOnly: true }, async (ctx) => {
    try {
      const body = (ctx.body && typeof ctx.body === "object" ? ctx.body : {}) as Record<string, unknown>;
      const metadata = readClientMetadata(body, { allowSkipConsent: true });
      const ccScopes = body.client_credentials_scopes;
      if (ccScopes !== undefined && (!Array.isArray(ccScopes) || ccScopes.some((scope) => typeof scope !== "string"))) {
        throw noStoreError("BAD_REQUEST", "invalid_client_metadata", "client_credentials_scopes must be a array");
      }
      const scopes = (ccScopes as string[] | undefined) ?? [];
      const invalid = scopes.filter((scope) => !options.scopes.includes(scope) || USER_SCOPES.has(scope));
      if (invalid.length) {
        throw noStoreError("BAD_REQUEST", "invalid_scope", `The following client_credentials scopes are invalid: ${invalid.map(quoted).join(", ")}`);
      }
      const session = await getSessionFromRequest(ctx);
      if (session) {
        await assertClientPrivilege(ctx, options, session, "create");
        if (scopes.length) await assertClientPrivilege(ctx, options, session, "configure-client-credentials-scopes");
      }
      const owner = session ? { userId: session.session.userId, referenceId: await sessionReference(options, session) } : {};
      const answer = await registerClient(ctx.context, options, metadata, "managed", owner, {
        clientCredentialsScopes: scopes,
        skipConsent: flag(body, "skip_consent"),
        requirePKCE: flag(body, "require_pkce"),
        enableEndSession: flag(body, "enable_end_session"),
      });
      for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
      ctx.status = 201;
      return { ...answer, client_credentials_scopes: scopes };
    } catch (error) {
      throw withNoStore(error);
    }
  });
}
