import type { EndpointContext, HookEntry } from "@latchkey/core";
import { expireMultiCookie, readMultiCookies } from "./multi-cookie.js";

/**
 * After `/sign-out`: sign the whole browser out. Every multi cookie whose signature checks is
 * expired and the sessions they name are deleted, whichever user they belong to.
 */
export const signOutHook: HookEntry = {
  matcher: ["/sign-out"],
  handler: async (ctx: EndpointContext) => {
    const cookies = await readMultiCookies(ctx);
    for (const cookie of cookies) expireMultiCookie(ctx, cookie.name);
    if (cookies.length) await ctx.context.internalAdapter.deleteSessions(cookies.map((c) => c.token));
  },
};
