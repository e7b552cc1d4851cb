import type { AuthContext } from "@latchkey/core";
import type { JwtPlugin } from "@latchkey/jwt";
import { jwtDisabled } from "./jwt-disabled.js";

export { jwtDisabled };

/** The jwt plugin's resolved options (the provider `requires` it); none with `disableJwtPlugin`, as the reference ignores it then. */
export function jwtOptions(ctx: AuthContext): JwtPlugin["options"] | undefined {
  if (jwtDisabled(ctx)) return undefined;
  return ctx.plugins.find((plugin) => plugin.id === "jwt")?.options as JwtPlugin["options"] | undefined;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * RFC 8414 §2: the issuer is an https URL without query or fragment (http kept for loopback
 * hosts, for development). An unparsable value is used as given, as the reference does.
 */
export function normaliseIssuer(issuer: string): string {
  try {
    const url = new URL(issuer);
    if (url.protocol !== "https:" && !LOOPBACK.test(url.host)) url.protocol = "https:";
    url.search = "";
    url.hash = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return issuer;
  }
}

/** The `iss` of tokens: the jwt plugin's `jwt.issuer`, else the base URL (not normalised). */
export const tokenIssuer = (ctx: AuthContext): string => jwtOptions(ctx)?.claims.issuer ?? ctx.baseURL;

/** The issuer identifier of discovery and of authorization responses (RFC 9207 `iss`). */
export const issuerOf = (ctx: AuthContext): string => normaliseIssuer(tokenIssuer(ctx));

/** The userinfo URL, which the reference adds to JWT access-token audiences for OpenID requests. */
export const userInfoURL = (ctx: AuthContext): string => `${ctx.baseURL}/oauth2/userinfo`;
