import { getClientIP, type AuthContext } from "@latchkey/core";
import { botIdAllows } from "./bot-id.js";
import { authPathOf } from "./endpoint-rules.js";
import { refusal } from "./error-codes.js";
import type { ResolvedCaptchaOptions } from "./options.js";
import { accepted, siteVerifyRequest } from "./providers.js";
import { postSiteVerify } from "./site-verify.js";

/** The header the browser sends the widget's token in (reference). */
export const CAPTCHA_HEADER = "x-captcha-response";

/**
 * The client's address when the request tells it. In development and test core answers
 * `127.0.0.1` when no header gives one; that is not the client's address, so it is not sent
 * (the reference sends it: row 93).
 */
function knownClientIP(request: Request, ctx: AuthContext): string | undefined {
  const ip = getClientIP(request.headers, ctx.options);
  if (ip === null || ip === getClientIP(new Headers(), ctx.options)) return undefined;
  return ip;
}

/**
 * The check for one request, run before routing: nothing when the path is not guarded or the
 * check passes; otherwise the refusal to send instead of running the route (so a refused
 * request reads no body, writes no row and sends no mail). 400 MISSING_RESPONSE without a
 * token, 403 VERIFICATION_FAILED when the provider says no, 500 UNKNOWN_ERROR when the
 * provider cannot be asked (fail closed, as the reference).
 */
export async function captchaCheck(
  request: Request,
  ctx: AuthContext,
  resolved: ResolvedCaptchaOptions,
): Promise<Response | undefined> {
  if (!resolved.covers(authPathOf(request.url, ctx.basePath))) return undefined;
  const { options, timeout } = resolved;
  try {
    if (options.provider === "vercel-botid") {
      return (await botIdAllows(options, request, timeout)) ? undefined : refusal("VERIFICATION_FAILED", 403);
    }
    const token = request.headers.get(CAPTCHA_HEADER);
    if (!token) return refusal("MISSING_RESPONSE", 400);
    const answer = await postSiteVerify(siteVerifyRequest(options, token, knownClientIP(request, ctx), timeout));
    if (accepted(options, answer)) return undefined;
    ctx.logger.warn(`Captcha verification failed (${options.provider})`, { errorCodes: answer["error-codes"] });
    return refusal("VERIFICATION_FAILED", 403);
  } catch (error) {
    // The message names the failure (timeout, status); the token and secret are never logged.
    ctx.logger.error(`Captcha check failed: ${error instanceof Error ? error.message : "unknown error"}`);
    return refusal("UNKNOWN_ERROR", 500);
  }
}
