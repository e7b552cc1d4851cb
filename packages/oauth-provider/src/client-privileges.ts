import { APIError, type EndpointContext, type SessionWithUser } from "@latchkey/core";
import type { ClientAction, ResolvedOAuthOptions } from "./options.js";

/**
 * `clientPrivileges`: the application decides whether the signed-in user may do `action` on
 * clients (create, read, list, update, delete, rotate). A refusal is a bare 401, as in the
 * reference; without the option every signed-in user may manage their own clients.
 */
export async function assertClientPrivilege(
  ctx: EndpointContext,
  options: ResolvedOAuthOptions,
  session: SessionWithUser,
  action: ClientAction,
): Promise<void> {
  if (!options.clientPrivileges) return;
  const allowed = await options.clientPrivileges({ headers: ctx.headers, action, session: session.session, user: session.user });
  if (!allowed) throw new APIError("UNAUTHORIZED");
}
