import { endpoint, type EndpointContext } from "@latchkey/core";
import { presentedClient } from "../client-auth.js";
import { authorizationCodeGrant } from "../grants/authorization-code.js";
import { clientCredentialsGrant } from "../grants/client-credentials.js";
import { refreshTokenGrant } from "../grants/refresh-token.js";
import { readTokenBody } from "../grants/token-body.js";
import { grantExtension } from "../grant-extensions.js";
import { NO_STORE, noStoreError, withNoStore } from "../oauth-error.js";
import type { GrantType, ResolvedOAuthOptions } from "../options.js";

const GRANTS = { authorization_code: authorizationCodeGrant, client_credentials: clientCredentialsGrant, refresh_token: refreshTokenGrant };

/** RFC 6749 §3.2: the token endpoint. Form bodies only; every answer, errors included, is `no-store` (§5.1, spec rule 9). */
export function tokenEndpoint(options: ResolvedOAuthOptions) {
  return endpoint(
    "/oauth2/token",
    { method: "POST", allowedMediaTypes: ["application/x-www-form-urlencoded"], formMembers: "all" },
    async (ctx: EndpointContext) => {
      try {
        const body = readTokenBody(ctx.body);
        if ("error" in body) throw noStoreError("BAD_REQUEST", body.error, body.description);
        if (!body.grant_type) throw noStoreError("BAD_REQUEST", "invalid_request", "grant_type is required");
        const grant = body.grant_type as GrantType;
        // A grant type another plugin added (e.g. RFC 8628's device_code) is that plugin's to handle.
        const extension = grantExtension(ctx.context, body.grant_type);
        if (extension) {
          const answer = await extension.handle(ctx);
          for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
          return answer;
        }
        if (!options.grantTypes.includes(grant) || !(grant in GRANTS)) {
          // The reference names the grant; a long or odd value is not echoed (no raw input in errors).
          const named = /^[\w:./-]{1,100}$/.test(body.grant_type) ? ` ${body.grant_type}` : "";
          throw noStoreError("BAD_REQUEST", "unsupported_grant_type", `unsupported grant_type${named}`);
        }
        const presented = presentedClient(ctx.headers, body, `${ctx.context.baseURL}/oauth2/token`, { ctx, options });
        const endpointUrl = `${ctx.context.baseURL}/oauth2/token`;
        const dpop = { proof: ctx.headers.get("dpop") ?? undefined, urls: ctx.request ? [endpointUrl, ctx.request.url] : [endpointUrl] };
        const answer = await GRANTS[grant](ctx.context, options, body, presented, dpop);
        for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
        return answer;
      } catch (error) {
        throw withNoStore(error);
      }
    },
  );
}
