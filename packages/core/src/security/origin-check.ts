import type { EndpointContext } from "../api/context.js";
import type { EndpointMiddleware } from "../api/endpoint.js";
import { APIError } from "../errors/api-error.js";
import { fail, type BaseErrorCode } from "../errors/index.js";
import { isTest } from "../env.js";
import { isTrustedOrigin, originOf } from "./trusted-origins.js";

const URL_FIELDS: Array<[key: string, label: string, code: BaseErrorCode]> = [
  ["callbackURL", "callbackURL", "INVALID_CALLBACK_URL"],
  ["redirectTo", "redirectURL", "INVALID_REDIRECT_URL"],
  ["errorCallbackURL", "errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
  ["newUserCallbackURL", "newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
];

/** Origin checks default to off under NODE_ENV=test, as in the reference. */
const skipURLChecks = (ctx: EndpointContext): boolean =>
  ctx.context.options.advanced?.disableOriginCheck ?? isTest();

/** CSRF checks are off when asked, or (deprecated coupling) when only disableOriginCheck is set. */
const skipCSRF = (ctx: EndpointContext): boolean => {
  const advanced = ctx.context.options.advanced;
  if (advanced?.disableCSRFCheck !== undefined) return advanced.disableCSRFCheck;
  return skipURLChecks(ctx);
};

async function trustedList(ctx: EndpointContext): Promise<string[]> {
  const option = ctx.context.options.trustedOrigins;
  if (typeof option !== "function") return ctx.context.trustedOrigins;
  const extra = (await option(ctx.request)) ?? [];
  return [...ctx.context.trustedOrigins, ...extra.filter(Boolean)];
}

/**
 * The request's Origin (or Referer) must be trusted when it carries cookies, or always with
 * `force`. A form posted with `Origin: null` by the same site counts as the request's own origin.
 */
async function validateOrigin(ctx: EndpointContext, force: boolean): Promise<void> {
  if (!ctx.request || skipCSRF(ctx)) return;
  const headers = ctx.headers;
  if (!force && !headers.has("cookie")) return;
  const origin = headers.get("origin");
  const sameSiteNull = origin === "null" && headers.get("sec-fetch-site") === "same-origin";
  const candidate = sameSiteNull ? originOf(ctx.request.url) : origin || headers.get("referer") || "";
  if (!candidate || candidate === "null") throw fail("FORBIDDEN", "MISSING_OR_NULL_ORIGIN");
  if (!isTrustedOrigin(candidate, await trustedList(ctx), false)) {
    ctx.context.logger.warn("Refused a request from an untrusted origin");
    throw fail("FORBIDDEN", "INVALID_ORIGIN");
  }
}

/**
 * Runs on every state-changing HTTP request: origin validation for credentialed requests,
 * then every redirect target in the body or query must be trusted or a safe relative path.
 */
export async function originCheck(ctx: EndpointContext): Promise<void> {
  const method = ctx.method;
  if (!ctx.request || method === "GET" || method === "HEAD" || method === "OPTIONS") return;
  await validateOrigin(ctx, false);
  if (skipURLChecks(ctx)) return;
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const query = (ctx.query ?? {}) as Record<string, unknown>;
  const trusted = await trustedList(ctx);
  for (const [key, label, code] of URL_FIELDS) {
    const value = body[key] || (key === "callbackURL" ? query[key] : undefined);
    if (!value) continue;
    if (typeof value !== "string") throw new APIError("BAD_REQUEST", { message: `Invalid ${label}: expected a string` });
    if (!isTrustedOrigin(value, trusted, true)) throw fail("FORBIDDEN", code);
  }
}

/**
 * The check the reference's GET routes run on their `query.callbackURL` (verify-email,
 * reset-password/:token, delete-user/callback), which the POST-only check above never sees:
 * trusted or a safe relative path, else 403 `INVALID_CALLBACK_URL`.
 */
export async function assertTrustedCallbackURL(ctx: EndpointContext, url: string | undefined): Promise<void> {
  if (!ctx.request || !url || skipURLChecks(ctx)) return;
  if (!isTrustedOrigin(url, await trustedList(ctx), true)) throw fail("FORBIDDEN", "INVALID_CALLBACK_URL");
}

/**
 * Login CSRF guard for the sign-in and sign-up forms: with cookies, the origin check; with
 * Fetch Metadata, a cross-site navigation is refused and anything else must come from a
 * trusted origin; a request with only Origin/Referer is checked; bare API clients pass.
 */
export const formCsrfMiddleware: EndpointMiddleware = async (ctx) => {
  if (!ctx.request || skipCSRF(ctx)) return;
  const h = ctx.headers;
  if (h.has("cookie")) return validateOrigin(ctx, false);
  const site = h.get("sec-fetch-site")?.trim();
  const mode = h.get("sec-fetch-mode")?.trim();
  const dest = h.get("sec-fetch-dest")?.trim();
  if (site || mode || dest) {
    if (site === "cross-site" && mode === "navigate") throw fail("FORBIDDEN", "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED");
    return validateOrigin(ctx, true);
  }
  if (h.get("origin") || h.get("referer")) return validateOrigin(ctx, true);
};
