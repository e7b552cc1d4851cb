import type { CookieSpec, EndpointContext } from "@latchkey/core";

/**
 * The signed `admin_session` cookie an impersonation leaves in the browser, in the reference's
 * format so either implementation can end an impersonation the other started: the value is
 * `<administrator's session token>:<their signed dont_remember value, or "">`, HMAC-signed like
 * every signed cookie, with the session cookie's attributes.
 */
export function adminCookie(ctx: EndpointContext): CookieSpec {
  return ctx.context.authCookies.create("admin_session");
}

/** The administrator's session token and whether their session was "don't remember me". */
export interface AdminCookieValue {
  token: string;
  dontRemember: boolean;
}

/** Writes the cookie for the administrator's current session. */
export async function setAdminCookie(ctx: EndpointContext, adminToken: string): Promise<void> {
  const { sessionToken, dontRememberToken } = ctx.context.authCookies;
  const dontRemember = await ctx.getSignedCookie(dontRememberToken.name);
  await ctx.setSignedCookie(adminCookie(ctx).name, `${adminToken}:${dontRemember ?? ""}`, sessionToken.attributes);
}

/** The verified cookie's content, or null when absent, unsigned or malformed. */
export async function readAdminCookie(ctx: EndpointContext): Promise<AdminCookieValue | null> {
  const value = await ctx.getSignedCookie(adminCookie(ctx).name);
  if (!value) return null;
  const [token, dontRemember] = value.split(":");
  return token ? { token, dontRemember: !!dontRemember } : null;
}
