import type { EndpointContext, HookEntry } from "@latchkey/core";

/**
 * After core's `/list-sessions`: impersonation sessions (those with `impersonatedBy`) are left
 * out, so a user does not see the sessions an administrator opened as them (reference).
 */
export const hideImpersonationSessions: HookEntry = {
  matcher: ["/list-sessions"],
  handler: (ctx: EndpointContext) => {
    const returned = ctx.context.returned;
    if (!Array.isArray(returned)) return undefined;
    return returned.filter((s: { impersonatedBy?: unknown }) => !s.impersonatedBy);
  },
};
