import type { EndpointContext } from "../api/context.js";
import { decodeCookieValue } from "../cookies/serialize.js";
import { verifySignedCookieValue } from "../crypto/hmac.js";

/**
 * The session token a request carries: the signed session cookie, else an
 * `Authorization: Bearer` value. A Bearer value with a dot must carry a valid signature
 * (`token.sig`, as the session cookie and the `set-auth-token` header give it); a bare token
 * is taken as is, as the reference's bearer handling accepts both.
 */
export async function readSessionToken(ctx: EndpointContext): Promise<string | null> {
  const fromCookie = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name);
  if (fromCookie) return fromCookie;
  const authorization = ctx.headers.get("authorization");
  if (!authorization || !/^bearer /i.test(authorization)) return null;
  const value = decodeCookieValue(authorization.slice(7).trim());
  if (!value) return null;
  if (!value.includes(".")) return ctx.context.requireSignedBearer ? null : value;
  return verifySignedCookieValue(value, ctx.context.secret);
}
