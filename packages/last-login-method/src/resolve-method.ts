import type { EndpointContext } from "@latchkey/core";
import type { LastLoginMethodOptions } from "./options.js";

/**
 * The built-in rules, from the endpoint path (the route template, e.g. `/callback/:id`), as
 * the reference has them: a social callback names its provider; email sign-in and sign-up are
 * "email"; SIWE, passkey, magic-link and email-OTP sign-ins their own names. Anything else is
 * no sign-in method (null).
 */
export function defaultLoginMethod(ctx: Pick<EndpointContext, "path" | "params">): string | null {
  const path = ctx.path;
  if (!path) return null;
  if (path.startsWith("/callback/")) return ctx.params?.id || path.split("/").pop() || null;
  if (path === "/sign-in/email" || path === "/sign-up/email") return "email";
  if (path.includes("siwe")) return "siwe";
  if (path.includes("/passkey/verify-authentication")) return "passkey";
  if (path.startsWith("/magic-link/verify")) return "magic-link";
  // Spec (Plugins, Last Login Method): email OTP sign-ins record "email-otp".
  if (path === "/sign-in/email-otp") return "email-otp";
  return null;
}

/**
 * The method of this request: the custom resolver's answer, else the built-in rules. A throwing
 * resolver is logged and treated as no answer (as a throwing `beforeStoreCookie` is): it runs
 * after the session row exists, so letting it through would answer 500 to a sign-in that
 * happened. The reference lets it through.
 */
export function resolveLoginMethod(options: LastLoginMethodOptions, ctx: EndpointContext): string | null {
  let custom: string | null | undefined;
  try {
    custom = options.customResolveMethod?.(ctx);
  } catch (error) {
    ctx.context.logger.error("[LastLoginMethod] customResolveMethod threw; using the built-in rules", error);
  }
  return custom ?? defaultLoginMethod(ctx);
}

/** Whether a database hook's context is an endpoint call (server-internal writes pass none). */
export const isEndpointContext = (ctx: unknown): ctx is EndpointContext =>
  typeof ctx === "object" && ctx !== null && "context" in ctx && "path" in ctx;
