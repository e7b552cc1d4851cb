import { endpoint, getClientIP } from "@latchkey/core";
import * as v from "valibot";
import { deviceError, oauthError } from "../error-codes.js";
import type { ResolvedDeviceAuthorizationOptions } from "../options.js";
import { redeemDeviceCode } from "../redeem.js";

/** The refusal of an OAuth client's device code at `/device/token` (the reference's words). */
export const OAUTH_TOKEN_ENDPOINT_ONLY = "This device code must be exchanged at the OAuth token endpoint (/oauth2/token).";

/** RFC 8628 §3.4: the grant type, exactly. */
export const DEVICE_CODE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";

// The grant type is checked after the shape, so a wrong one is worded as the reference words
// it (`[body.grant_type] Invalid input: expected "urn:…"`), whatever value was sent.
const body = v.pipe(
  v.object({ grant_type: v.unknown(), device_code: v.string(), client_id: v.string() }),
  v.forward(
    v.check((input) => input.grant_type === DEVICE_CODE_GRANT_TYPE, `Invalid input: expected "${DEVICE_CODE_GRANT_TYPE}"`),
    ["grant_type"],
  ),
);

/**
 * `POST /device/token` (RFC 8628 §3.4-3.5), JSON or url-encoded: polls a device code. Errors
 * are `authorization_pending`, `slow_down`, `expired_token`, `access_denied` and
 * `invalid_grant` (unknown code, another client's code); once approved, the first poll gets
 * a new session for the approving user: `{ access_token (the session token), token_type:
 * "Bearer", expires_in, scope }`. No cookie is set.
 */
export const deviceToken = (options: ResolvedDeviceAuthorizationOptions, oauthCodes = false) =>
  endpoint(
    "/device/token",
    { method: "POST", body, allowedMediaTypes: ["application/json", "application/x-www-form-urlencoded"] },
    async (ctx) => {
      const { device_code, client_id } = ctx.body;
      if (options.validateClient && !(await options.validateClient(client_id))) {
        throw oauthError("BAD_REQUEST", "invalid_grant", "Invalid client ID");
      }
      const { row, user } = await redeemDeviceCode(ctx, device_code, {
        authorize: (found) => {
          // With `oauthDeviceAuthorization()`, an OAuth client's code is redeemed only at `/oauth2/token`.
          if (oauthCodes && found.oauthClientId) throw oauthError("BAD_REQUEST", "invalid_grant", OAUTH_TOKEN_ENDPOINT_ONLY);
          if (found.clientId && found.clientId !== client_id) throw oauthError("BAD_REQUEST", "invalid_grant", "Client ID mismatch");
          return oauthCodes ? [{ field: "clientId", value: client_id }, { field: "oauthClientId", value: null }] : [{ field: "clientId", value: client_id }];
        },
      });
      const auth = ctx.context;
      const session = await auth.internalAdapter.createSession(
        user.id,
        false,
        { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") },
        ctx,
      );
      if (!session) throw deviceError("INTERNAL_SERVER_ERROR", "server_error", "FAILED_TO_CREATE_SESSION");
      auth.newSession = { session, user };
      return {
        access_token: session.token,
        token_type: "Bearer",
        expires_in: Math.floor((new Date(session.expiresAt).getTime() - Date.now()) / 1000),
        scope: row.scope || "",
      };
    },
  );
