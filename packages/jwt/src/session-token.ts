import { getService, toOutput, type AuthContext, type SessionWithUser } from "@latchkey/core";
import type { JWTPayload } from "jose";
import type { ResolvedJwtOptions } from "./options.js";
import { JWT_SIGNER } from "./signer.js";

/**
 * The JWT for a session, as `/token` and `set-auth-jwt` send it: `definePayload(session)` or
 * the user as the client sees it, `iat` now unless the payload sets one, and `sub` from
 * `getSubject` or the user id (RFC 7519 §4.1.2), which the payload cannot override.
 */
export async function sessionToken(
  ctx: AuthContext,
  options: ResolvedJwtOptions,
  session: SessionWithUser,
): Promise<string> {
  const { definePayload, getSubject } = options.claims;
  const payload = definePayload
    ? await definePayload(session)
    : // The output form: fields marked `returned: false` never leave the server, in a token either.
      toOutput(ctx.schema, "user", session.user);
  const sub = (await getSubject?.(session)) ?? session.user.id;
  return getService(ctx, JWT_SIGNER).sign({ iat: Math.floor(Date.now() / 1000), ...payload, sub } as JWTPayload);
}
