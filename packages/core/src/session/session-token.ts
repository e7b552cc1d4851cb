import type { EndpointContext } from "../api/context.js";
import { decodeCookieValue } from "../cookies/serialize.js";
import { verifySignedCookieValue } from "../crypto/hmac.js";
import { findService } from "../plugin-services.js";
import { BEARER_TOKEN_POLICY } from "./bearer-policy.js";

/**
 * The session token a request carries: the signed session cookie, else an
 * `Authorization: Bearer` value. A Bearer value must carry a valid signature (`token.sig`,
 * as the session cookie and the `set-auth-token` header give it). A bare token counts only
 * where the `bearer()` plugin allows it: the reference reads no Bearer at all without that
 * plugin, and a raw token lifted from a response body must not work from anywhere.
 */
export async function readSessionToken(ctx: EndpointContext): Promise<string | null> {
  const fromCookie = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name);
  if (fromCookie) return fromCookie;
  const authorization = ctx.headers.get("authorization");
  if (!authorization || !/^bearer /i.test(authorization)) return null;
  const value = decodeCookieValue(authorization.slice(7).trim());
  if (!value) return null;
  if (!value.includes(".")) return findService(ctx.context, BEARER_TOKEN_POLICY)?.acceptUnsigned ? value : null;
  return verifySignedCookieValue(value, ctx.context.secret);
}
