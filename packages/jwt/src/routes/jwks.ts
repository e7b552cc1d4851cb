import { APIError, endpoint, getService } from "@latchkey/core";
import type { ResolvedJwtOptions } from "../options.js";
import { JWT_SIGNER } from "../signer.js";

/**
 * `GET /jwks` (or `jwks.jwksPath`): the public key set (RFC 7517 §5), `{ keys }`, with each
 * key's `alg` and `kid` (the row id). The first request on an empty table creates a key.
 * With `jwks.remoteUrl` the set lives there and this route answers 404, as the reference.
 */
export function getJwks(options: ResolvedJwtOptions) {
  return endpoint(options.jwksPath, { method: "GET" }, async (ctx) => {
    if (options.remoteUrl) throw new APIError("NOT_FOUND");
    return { keys: await getService(ctx.context, JWT_SIGNER).jwks() };
  });
}
