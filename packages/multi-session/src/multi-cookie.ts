import { parseCookieHeader, type EndpointContext, type SessionWithUser } from "@latchkey/core";

/** The infix between the session cookie's name and the lower-cased token (reference). */
const MULTI = "_multi-";

/** `<session cookie name>_multi-<lower-cased token>`: the cookie that remembers one session. */
export function multiCookieName(ctx: EndpointContext, token: string): string {
  return `${ctx.context.authCookies.sessionToken.name}${MULTI}${token.toLowerCase()}`;
}

/** One multi-session cookie the request carries: its name and the token it verified to. */
export interface MultiCookie {
  name: string;
  token: string;
}

/**
 * The signed value of the multi cookie `name`, or null. The HMAC covers the value only, so the
 * reference would take a validly signed token found under any `_multi-` name; here the name
 * must be the one that token gets, so a copied or renamed cookie is ignored.
 */
export async function readMultiCookie(ctx: EndpointContext, name: string): Promise<string | null> {
  const token = await ctx.getSignedCookie(name);
  return token && multiCookieName(ctx, token) === name ? token : null;
}

/** Every multi cookie of this instance the request carries whose signature and name check out, in request order. */
export async function readMultiCookies(ctx: EndpointContext): Promise<MultiCookie[]> {
  const prefix = `${ctx.context.authCookies.sessionToken.name}${MULTI}`;
  const names = [...parseCookieHeader(ctx.headers.get("cookie")).keys()].filter((n) => n.startsWith(prefix));
  const found: MultiCookie[] = [];
  for (const name of names) {
    const token = await readMultiCookie(ctx, name);
    if (token) found.push({ name, token });
  }
  return found;
}

/**
 * The same cookies in ascending token order. The reference lists (and, on revoking the active
 * session, hands over to) sessions in the order its database answers `token IN (...)`; SQLite
 * walks the token index, so ascending by token. Sorting gives that order on every database.
 */
export const byToken = (cookies: MultiCookie[]): MultiCookie[] =>
  cookies.sort((x, y) => (x.token < y.token ? -1 : x.token > y.token ? 1 : 0));

/** The session behind `token` when it exists and has not expired. */
export async function liveSession(ctx: EndpointContext, token: string): Promise<SessionWithUser | null> {
  const found = await ctx.context.internalAdapter.findSession(token);
  return found && new Date(found.session.expiresAt).getTime() > Date.now() ? found : null;
}

/** Expires a multi cookie with the session cookie's attributes, as the reference does. */
export function expireMultiCookie(ctx: EndpointContext, name: string): void {
  ctx.expireCookie({ name, attributes: ctx.context.authCookies.sessionToken.attributes });
}
