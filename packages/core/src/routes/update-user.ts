import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { toOutput } from "../db/output.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { deleteSessionCookie, setSessionCookie } from "../session/session-cookie.js";
import { sessionMiddleware } from "../session/session-middleware.js";
import { parseInput } from "../db/field-input.js";
import { validationMessage } from "../api/validation.js";

const record = v.record(v.string(), v.unknown());

/**
 * `name` and `image` must be a string (image may be null). The reference accepts any JSON
 * value here and stores it in a text column; Latchkey refuses it (see DIVERGENCES.md).
 */
const profile = v.object({ name: v.optional(v.string()), image: v.optional(v.nullable(v.string())) });

/** The reference answers "nothing to change" with a message and no code. */
const nothingToUpdate = (): APIError => new APIError("BAD_REQUEST", { message: "No fields to update" });

/**
 * `POST /update-user`: changes `name`, `image` and client-settable additional fields. The
 * email cannot change here (that is `/change-email`); other core fields are ignored, as in
 * the reference. The session cookie (and its cache) is re-issued with the new user.
 */
export const updateUser = endpoint("/update-user", { method: "POST", body: record, use: [sessionMiddleware] }, async (ctx) => {
  const auth = ctx.context;
  const { name: _name, image: _image, email, ...rest } = ctx.body;
  if (email) throw fail("BAD_REQUEST", "EMAIL_CAN_NOT_BE_UPDATED");
  const checked = v.safeParse(profile, ctx.body);
  if (!checked.success) {
    throw new APIError(400, { message: validationMessage(checked.issues, "body", profile), code: "VALIDATION_ERROR" });
  }
  const { name, image } = checked.output;
  const additional = parseInput(auth, "user", rest, "update");
  if (name === undefined && image === undefined && !Object.keys(additional).length) throw nothingToUpdate();
  const session = auth.session;
  const changes = { ...additional, ...(name !== undefined && { name }), ...(image !== undefined && { image }) };
  const updated = (await auth.internalAdapter.updateUser(session.user.id, changes, ctx)) ?? { ...session.user, ...changes };
  await setSessionCookie(ctx, { session: session.session, user: updated });
  return { status: true };
});

/** `POST /update-session`: changes client-settable additional session fields. */
export const updateSession = endpoint("/update-session", { method: "POST", body: record, use: [sessionMiddleware] }, async (ctx) => {
  const auth = ctx.context;
  const session = auth.session;
  const additional = parseInput(auth, "session", ctx.body, "update");
  if (!Object.keys(additional).length) throw nothingToUpdate();
  const updated = await auth.internalAdapter.updateSession(session.session.token, { ...additional, updatedAt: new Date() }, ctx);
  if (!updated) {
    // The row vanished between the session check and the write (a concurrent sign-out).
    deleteSessionCookie(ctx);
    throw fail("UNAUTHORIZED", "FAILED_TO_GET_SESSION");
  }
  await setSessionCookie(ctx, { session: updated, user: session.user });
  return { session: toOutput(auth.schema, "session", updated) };
});
