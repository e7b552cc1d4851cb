import { APIError, endpoint, sessionMiddleware, toOutput, type EndpointContext } from "@latchkey/core";
import * as v from "valibot";
import { PASSKEY_ERROR_CODES } from "../error-codes.js";
import { userPasskeys } from "../passkey-store.js";
import type { Passkey } from "../schema.js";

/**
 * The passkey `id` when it belongs to the session's user: 404 `PASSKEY_NOT_FOUND` when there
 * is none, 401 when it is another user's (the reference's ownership check; delete answers the
 * bare status without a body, update `YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY`). An empty
 * id is 400 with the reference's message and no code.
 */
async function ownedPasskey(
  ctx: EndpointContext,
  userId: string,
  id: string,
  forbidden: () => Error,
): Promise<Passkey> {
  if (!id) throw new APIError("BAD_REQUEST", { message: "Missing required parameter: id" });
  const found = await ctx.context.adapter.findOne<Passkey & Record<string, unknown>>({
    model: "passkey",
    where: [{ field: "id", value: id }],
  });
  if (!found) throw PASSKEY_ERROR_CODES.fail("PASSKEY_NOT_FOUND", "NOT_FOUND");
  if (found.userId !== userId) throw forbidden();
  return found;
}

/** `GET /passkey/list-user-passkeys`: the session user's passkey rows. */
export const listPasskeys = endpoint(
  "/passkey/list-user-passkeys",
  { method: "GET", use: [sessionMiddleware], requireHeaders: true },
  async (ctx) => {
    const rows = await userPasskeys(ctx, ctx.context.session.user.id);
    return rows.map((row) => toOutput(ctx.context.schema, "passkey", row));
  },
);

/** `POST /passkey/delete-passkey` `{ id }`: deletes one of the session user's passkeys; `{ status: true }`. */
export const deletePasskey = endpoint(
  "/passkey/delete-passkey",
  { method: "POST", body: v.object({ id: v.string() }), use: [sessionMiddleware], requireHeaders: true },
  async (ctx) => {
    const userId = ctx.context.session.user.id;
    await ownedPasskey(ctx, userId, ctx.body.id, () => new APIError("UNAUTHORIZED"));
    // The owner is part of the condition, so the row deleted is the one checked.
    await ctx.context.adapter.deleteMany({
      model: "passkey",
      where: [
        { field: "id", value: ctx.body.id },
        { field: "userId", value: userId },
      ],
    });
    return { status: true };
  },
);

const updateBody = v.object({ id: v.string(), name: v.pipe(v.string(), v.trim(), v.minLength(1)) });

/** `POST /passkey/update-passkey` `{ id, name }`: renames one of the session user's passkeys; `{ passkey }`. */
export const updatePasskey = endpoint(
  "/passkey/update-passkey",
  { method: "POST", body: updateBody, use: [sessionMiddleware], requireHeaders: true },
  async (ctx) => {
    const userId = ctx.context.session.user.id;
    await ownedPasskey(ctx, userId, ctx.body.id, () =>
      PASSKEY_ERROR_CODES.fail("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY", "UNAUTHORIZED"),
    );
    const updated = await ctx.context.adapter.update<Passkey & Record<string, unknown>>({
      model: "passkey",
      where: [
        { field: "id", value: ctx.body.id },
        { field: "userId", value: userId },
      ],
      update: { name: ctx.body.name },
    });
    if (!updated) throw PASSKEY_ERROR_CODES.fail("FAILED_TO_UPDATE_PASSKEY", "INTERNAL_SERVER_ERROR");
    return { passkey: toOutput(ctx.context.schema, "passkey", updated) };
  },
);
