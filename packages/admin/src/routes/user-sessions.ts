import { endpoint, toOutput } from "@latchkey/core";
import * as v from "valibot";
import { adminSessionMiddleware, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { userIdBody } from "./inputs.js";

/** `POST /admin/list-user-sessions` `{ userId }` (`session:list`): `{ sessions }`, the user's live sessions. */
export const listUserSessions = (options: ResolvedAdminOptions) =>
  endpoint(
    "/admin/list-user-sessions",
    { method: "POST", body: userIdBody, use: [adminSessionMiddleware] },
    async (ctx) => {
      const auth = ctx.context;
      requirePermission(auth.session, { session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS", options);
      const sessions = await auth.internalAdapter.listSessions(ctx.body.userId);
      return { sessions: sessions.map((s) => toOutput(auth.schema, "session", s)) };
    },
  );

/** `POST /admin/revoke-user-session` `{ sessionToken }` (`session:revoke`): ends that session; `{ success: true }`. */
export const revokeUserSession = (options: ResolvedAdminOptions) =>
  endpoint(
    "/admin/revoke-user-session",
    { method: "POST", body: v.object({ sessionToken: v.string() }), use: [adminSessionMiddleware] },
    async (ctx) => {
      const auth = ctx.context;
      requirePermission(auth.session, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS", options);
      await auth.internalAdapter.deleteSession(ctx.body.sessionToken, ctx);
      return { success: true };
    },
  );

/** `POST /admin/revoke-user-sessions` `{ userId }` (`session:revoke`): ends every session of the user; `{ success: true }`. */
export const revokeUserSessions = (options: ResolvedAdminOptions) =>
  endpoint(
    "/admin/revoke-user-sessions",
    { method: "POST", body: userIdBody, use: [adminSessionMiddleware] },
    async (ctx) => {
      const auth = ctx.context;
      requirePermission(auth.session, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS", options);
      await auth.internalAdapter.deleteUserSessions(ctx.body.userId, ctx);
      return { success: true };
    },
  );
