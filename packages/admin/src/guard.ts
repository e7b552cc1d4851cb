import type { AuthorizeRequest } from "@latchkey/access";
import {
  APIError,
  getSessionFromRequest,
  type EndpointContext,
  type EndpointMiddleware,
  type SessionWithUser,
  type WithSession,
} from "@latchkey/core";
import { ADMIN_ERROR_CODES, type AdminErrorCode } from "./error-codes.js";
import type { ResolvedAdminOptions } from "./options.js";
import { hasPermission } from "./permission.js";
import type { UserWithRole } from "./schema.js";

/** The caller's session as the admin routes see it: the user carries its role. */
export type AdminSession = SessionWithUser & { user: UserWithRole };

/**
 * Refuses with 403 and `code` unless the caller may do what `permissions` asks. Every admin
 * route answers a caller without the permission with 403, never 401: 401 means "no session".
 */
export function requirePermission(
  session: SessionWithUser,
  permissions: AuthorizeRequest,
  code: AdminErrorCode,
  options: ResolvedAdminOptions,
): void {
  const user = session.user as UserWithRole;
  if (!hasPermission({ id: user.id, role: user.role }, permissions, options)) {
    throw ADMIN_ERROR_CODES.fail(code, "FORBIDDEN");
  }
}

/**
 * Whether the call came from server code without any request or credentials: `auth.api`
 * called with no request and no headers. Such calls may create users or check permissions
 * without a session, as in the reference; anything carrying headers must bring a session.
 */
export function isBareServerCall(ctx: EndpointContext): boolean {
  if (ctx.request) return false;
  let any = false;
  ctx.headers.forEach(() => {
    any = true;
  });
  return !any;
}

/**
 * The admin routes' session guard: the caller's session read from storage (never the cache
 * cookie, so a revoked administrator is refused at once), or 401 with no body, as the
 * reference's admin middleware answers.
 */
export const adminSessionMiddleware: EndpointMiddleware<WithSession> = async (ctx) => {
  ctx.context.session = null;
  const session = await getSessionFromRequest(ctx, { disableCookieCache: true });
  if (!session) throw new APIError("UNAUTHORIZED");
};
