import type { CookieAttributes, EndpointContext } from "@latchkey/core";
import { confirmationURL } from "./logout-pages.js";

/** Seconds a logout confirmation stays valid (the reference's 5 minutes). */
const TTL_SECONDS = 300;

/** What the signed confirmation cookie carries between the end-session page and its confirmation. */
export interface LogoutConfirmation {
  /** The browser session the user is asked to end; absent when there was none. */
  sessionId?: string;
  clientId?: string;
  postLogoutRedirectUri?: string;
  state?: string;
  /** The requested redirect was not registered: the user is told, never redirected. */
  redirectInvalid?: boolean;
  /** Milliseconds. */
  expiresAt: number;
}

/** `<session cookie name>.oauth_logout_confirmation`, as the reference names it. */
const cookieName = (ctx: EndpointContext): string => `${ctx.context.authCookies.sessionToken.name}.oauth_logout_confirmation`;

function cookiePath(ctx: EndpointContext): string {
  try {
    return new URL(confirmationURL(ctx)).pathname;
  } catch {
    return "/oauth2/end-session/confirm";
  }
}

/** HttpOnly, SameSite=Lax, scoped to the confirm route only. */
function attributes(ctx: EndpointContext, maxAge: number): CookieAttributes {
  return { ...ctx.context.authCookies.sessionToken.attributes, httpOnly: true, maxAge, path: cookiePath(ctx), sameSite: "lax" };
}

export async function setConfirmation(ctx: EndpointContext, confirmation: Omit<LogoutConfirmation, "expiresAt">): Promise<void> {
  const value: LogoutConfirmation = { ...confirmation, expiresAt: Date.now() + TTL_SECONDS * 1000 };
  await ctx.setSignedCookie(cookieName(ctx), JSON.stringify(value), attributes(ctx, TTL_SECONDS));
}

export function clearConfirmation(ctx: EndpointContext): void {
  ctx.setCookie(cookieName(ctx), "", attributes(ctx, 0));
}

const optionalText = (value: unknown): value is string | undefined => value === undefined || (typeof value === "string" && value.length > 0);

/** The confirmation the request carries, or null when absent, tampered with or malformed. */
export async function readConfirmation(ctx: EndpointContext): Promise<LogoutConfirmation | null> {
  const raw = await ctx.getSignedCookie(cookieName(ctx));
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object") return null;
  const record = parsed as Record<string, unknown>;
  if (!optionalText(record.sessionId) || !optionalText(record.clientId) || !optionalText(record.postLogoutRedirectUri)) return null;
  if (record.state !== undefined && typeof record.state !== "string") return null;
  if (record.redirectInvalid !== undefined && typeof record.redirectInvalid !== "boolean") return null;
  if (record.postLogoutRedirectUri !== undefined && record.clientId === undefined) return null;
  if (typeof record.expiresAt !== "number" || !Number.isFinite(record.expiresAt)) return null;
  return record as unknown as LogoutConfirmation;
}
