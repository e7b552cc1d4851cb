import { endpoint, type EndpointContext } from "@latchkey/core";
import type { DeviceCodeResponse } from "../client.js";
import * as v from "valibot";
import { newDeviceCode, newUserCode } from "../codes.js";
import { oauthError } from "../error-codes.js";
import type { ResolvedDeviceAuthorizationOptions } from "../options.js";
import { insertDeviceCode } from "../store.js";
import { verificationUris } from "../verification-uri.js";

const body = v.object({
  client_id: v.string(),
  user_id: v.optional(v.string()),
  scope: v.optional(v.string()),
});

/** Fresh codes are drawn again when a unique index refuses them, this many times in all. */
const INSERT_ATTEMPTS = 3;

/** An empty parameter is an absent one (RFC 6749 §3.1). */
const present = (value: string | undefined): string | undefined => (value ? value : undefined);

/**
 * `POST /device/code` (RFC 8628 §3.1-3.2), JSON or url-encoded: `{ client_id, user_id?, scope? }`
 * → `{ device_code, user_code, verification_uri, verification_uri_complete, expires_in,
 * interval }`, both in seconds. A `user_id` binds the code to that user in advance.
 * `validateClient` refusing the client is `invalid_client`; validation failures are
 * `invalid_request` (the after hook in `oauth-errors.ts` words them).
 */
export const deviceCode = (options: ResolvedDeviceAuthorizationOptions) =>
  endpoint(
    "/device/code",
    { method: "POST", body, allowedMediaTypes: ["application/json", "application/x-www-form-urlencoded"] },
    async (ctx) => {
      const clientId = present(ctx.body.client_id);
      const scope = present(ctx.body.scope);
      const userId = present(ctx.body.user_id);
      if (!clientId) throw oauthError("BAD_REQUEST", "invalid_request", "client_id is required");
      if (options.validateClient && !(await options.validateClient(clientId))) {
        throw oauthError("BAD_REQUEST", "invalid_client", "Invalid client ID");
      }
      if (options.onDeviceAuthRequest) await options.onDeviceAuthRequest(clientId, scope);
      return issueCodePair(ctx, options, { userId: userId ?? null, clientId, scope: scope ?? null });
    },
  );

/**
 * Stores a new pending code pair with `fields` and answers RFC 8628 §3.2's response; fresh
 * codes are drawn when a unique index refuses them (then 500 `server_error`).
 */
export async function issueCodePair(
  ctx: EndpointContext,
  options: ResolvedDeviceAuthorizationOptions,
  fields: { userId: string | null; clientId: string; scope: string | null } & Record<string, unknown>,
): Promise<DeviceCodeResponse> {
  const expiresAt = new Date(Date.now() + options.expiresInMs);
  for (let attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
    const device = await newDeviceCode(options);
    const user = await newUserCode(options);
    const stored = await insertDeviceCode(ctx, { ...fields, deviceCode: device, userCode: user, expiresAt, status: "pending", pollingInterval: options.intervalMs });
    if (!stored) continue;
    const { uri, complete } = verificationUris(options.verificationUri, ctx.context.baseURL, user);
    return {
      device_code: device,
      user_code: user,
      verification_uri: uri,
      verification_uri_complete: complete,
      expires_in: Math.floor(options.expiresInMs / 1000),
      // Rounded up: a client that waits the announced seconds never polls too soon.
      interval: Math.ceil(options.intervalMs / 1000),
    };
  }
  throw oauthError("INTERNAL_SERVER_ERROR", "server_error", "Failed to generate a unique device code");
}
