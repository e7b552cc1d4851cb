import {
  APIError,
  endpoint,
  fail,
  getSessionFromRequest,
  isEmail,
  toOutput,
  type EndpointContext,
  type SessionWithUser,
} from "@latchkey/core";
import * as v from "valibot";
import { ADMIN_ERROR_CODES } from "../error-codes.js";
import { isBareServerCall, requirePermission } from "../guard.js";
import type { ResolvedAdminOptions } from "../options.js";
import { storedRole } from "../roles-input.js";
import { userColumns } from "../user-data.js";
import { assertPasswordLength } from "../password-length.js";
import { roleValue } from "./inputs.js";

const body = v.object({
  email: v.string(),
  password: v.optional(v.string()),
  name: v.string(),
  role: v.optional(roleValue),
  data: v.optional(v.record(v.string(), v.unknown())),
});

const BAN_FIELDS = ["banned", "banReason", "banExpires"];

/** The caller's session read from storage; 401 when a request (not bare server code) has none. */
async function callerSession(ctx: EndpointContext): Promise<SessionWithUser | null> {
  ctx.context.session = null;
  const session = await getSessionFromRequest(ctx, { disableCookieCache: true });
  // Reference: a bare 401 (no body) for a request without a session.
  if (!session && !isBareServerCall(ctx)) throw new APIError("UNAUTHORIZED");
  return session;
}

/**
 * Inserts the user. Two requests racing for one email both pass the lookup; the database's
 * unique index lets one insert through, and the other is answered as a taken email (400),
 * not as the database error it got.
 */
async function insertUser(ctx: EndpointContext, data: Record<string, unknown>) {
  const ia = ctx.context.internalAdapter;
  try {
    return await ia.createUser(data as never, ctx);
  } catch (error) {
    if (await ia.findUserByEmail(String(data.email))) {
      throw ADMIN_ERROR_CODES.fail("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "BAD_REQUEST");
    }
    throw error;
  }
}

/**
 * `POST /admin/create-user` `{ email, password?, name, role?, data? }` (`user:create`, plus
 * `user:set-role` for a role and `user:ban` for ban fields in `data`): creates the user (role
 * `role`, else `data.role`, else `defaultRole`) and, with a password, its credential account
 * (`providerId` "credential", `accountId` = the user id). `{ user }`.
 *
 * The password must respect `emailAndPassword.minPasswordLength` and `maxPasswordLength`
 * (400 `PASSWORD_TOO_SHORT` / `PASSWORD_TOO_LONG`): the reference checks only the maximum
 * (DIVERGENCES.md row 73). Server code calling without headers needs no session.
 */
export const createUser = (options: ResolvedAdminOptions) =>
  endpoint("/admin/create-user", { method: "POST", body }, async (ctx) => {
    const auth = ctx.context;
    const session = await callerSession(ctx);
    if (session) requirePermission(session, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS", options);
    const { role: dataRole, ...data } = ctx.body.data ?? {};
    const requested = ctx.body.role ?? dataRole;
    let role = options.defaultRole;
    if (requested !== undefined) {
      if (session) requirePermission(session, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE", options);
      role = storedRole(requested, options);
    }
    if (session && BAN_FIELDS.some((key) => Object.hasOwn(data, key))) {
      requirePermission(session, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", options);
    }
    const email = ctx.body.email.toLowerCase();
    if (!isEmail(email)) throw fail("BAD_REQUEST", "INVALID_EMAIL");
    if (ctx.body.password !== undefined) assertPasswordLength(ctx, ctx.body.password);
    const columns = userColumns(ctx, data);
    if (await auth.internalAdapter.findUserByEmail(email)) {
      throw ADMIN_ERROR_CODES.fail("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "BAD_REQUEST");
    }
    const user = await insertUser(ctx, { ...columns, email, name: ctx.body.name, role });
    if (!user) throw ADMIN_ERROR_CODES.fail("FAILED_TO_CREATE_USER", "INTERNAL_SERVER_ERROR");
    if (ctx.body.password !== undefined) {
      const hash = await auth.password.hash(ctx.body.password);
      await auth.internalAdapter.linkAccount({ providerId: "credential", accountId: user.id, password: hash, userId: user.id }, ctx);
    }
    return { user: toOutput(auth.schema, "user", user) };
  });
