import { endpoint, getService } from "@latchkey/core";
import { OAUTH_PROVIDER_API } from "@latchkey/oauth-provider";
import * as v from "valibot";
import { oauthError } from "../error-codes.js";
import type { ResolvedDeviceAuthorizationOptions } from "../options.js";
import { DEVICE_CODE_GRANT_TYPE } from "./device-token.js";
import { issueCodePair } from "./device-code.js";
import { resourceIndicators } from "../resource-indicators.js";

// Optional: a client authenticating with Basic may send no member at all.
const body = v.optional(v.object({
  client_id: v.optional(v.string()),
  client_secret: v.optional(v.string()),
  client_assertion: v.optional(v.string()),
  client_assertion_type: v.optional(v.string()),
  user_id: v.optional(v.string()),
  scope: v.optional(v.string()),
  resource: v.optional(v.unknown()),
}));

/** The url-encoded members that must appear at most once (RFC 6749 §3.1). */
export const OAUTH_DEVICE_CODE_PARAMS = ["client_id", "client_secret", "client_assertion", "client_assertion_type", "user_id", "scope"] as const;

const present = (value: string | undefined): string | undefined => (value ? value : undefined);

/** Scopes split on any whitespace, rejoined with single spaces (undefined when none). */
const normalizedScope = (scope: string | undefined): string[] => (scope?.trim() ? scope.trim().split(/\s+/) : []);

/**
 * `POST /device/code` of `oauthDeviceAuthorization()` (RFC 8628 §3.1): the request of a
 * registered OAuth client, authenticated by oauth-provider (Basic, `client_secret_post`,
 * `private_key_jwt`, or `client_id` alone for a public client); the client must be registered
 * for the device_code grant and for every requested scope. The code pair is stored with
 * `oauthClientId` and redeemed only at `/oauth2/token`. A `client_id` that names no OAuth
 * client, sent without credentials, gets a first-party code as with `deviceAuthorization()`
 * (as in the reference). RFC 8707 `resource` indicators (repeatable) are checked as at
 * `/oauth2/authorize` and bound to the code.
 */
export const oauthDeviceCode = (options: ResolvedDeviceAuthorizationOptions) =>
  endpoint(
    "/device/code",
    // `formMembers: "all"`: `resource` may repeat (RFC 8707 §2); the others were checked by `checkDeviceCodeForm`.
    { method: "POST", body, allowedMediaTypes: ["application/json", "application/x-www-form-urlencoded"], formMembers: "all" },
    async (ctx) => {
      const raw = ctx.body ?? {};
      const clientId = present(raw.client_id);
      const userId = present(raw.user_id) ?? null;
      const scopes = normalizedScope(raw.scope);
      const scope = scopes.length ? scopes.join(" ") : null;
      // RFC 8707 §2: checked for form first; a first-party code ignores them, as in the reference.
      const resources = resourceIndicators(raw.resource);
      const credentials = Boolean(ctx.headers.get("authorization") || raw.client_secret || raw.client_assertion || raw.client_assertion_type);
      if (!clientId && !credentials) throw oauthError("BAD_REQUEST", "invalid_request", "client_id is required");
      const api = getService(ctx.context, OAUTH_PROVIDER_API);
      if (clientId && !credentials && !(await api.findClient(ctx.context, clientId))) {
        if (options.validateClient && !(await options.validateClient(clientId))) throw oauthError("BAD_REQUEST", "invalid_client", "Invalid client ID");
        if (options.onDeviceAuthRequest) await options.onDeviceAuthRequest(clientId, scope ?? undefined);
        return issueCodePair(ctx, options, { userId, clientId, scope });
      }
      const client = await api.authenticateClient(
        ctx.context,
        { headers: ctx.headers, body: raw as Record<string, unknown>, endpoint: `${ctx.context.baseURL}/device/code` },
        { scopes, grant: DEVICE_CODE_GRANT_TYPE },
      );
      if (clientId && client.clientId !== clientId) throw oauthError("BAD_REQUEST", "invalid_client", "Client ID mismatch");
      // The authorization-code flow's resource rules (configured, enabled, linked, scopes left).
      await api.resourcePolicy(ctx.context, { resources, clientId: client.clientId, scopes });
      if (options.validateClient && !(await options.validateClient(client.clientId))) throw oauthError("BAD_REQUEST", "invalid_client", "Invalid client ID");
      if (options.onDeviceAuthRequest) await options.onDeviceAuthRequest(client.clientId, scope ?? undefined);
      return issueCodePair(ctx, options, { userId, clientId: client.clientId, scope, oauthClientId: client.clientId, resources: resources ?? null });
    },
  );
