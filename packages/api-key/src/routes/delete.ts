import { endpoint, sessionMiddleware } from "@latchkey/core";
import * as v from "valibot";
import { API_KEY_ERROR_CODES } from "../error-codes.js";
import { sweepExpiredKeys } from "../expired-sweep.js";
import type { ResolvedConfig } from "../options.js";
import { deleteKey } from "../store.js";
import { findOwnedKey } from "./owned-key.js";

const body = v.object({ configId: v.optional(v.string()), keyId: v.string() });

/** `POST /api-key/delete` `{ keyId, configId? }` (session): `{ success: true }`; a banned user gets 401 `USER_BANNED`. */
export const deleteApiKey = (configs: readonly ResolvedConfig[]) =>
  endpoint("/api-key/delete", { method: "POST", body, use: [sessionMiddleware] }, async (ctx) => {
    const { user } = ctx.context.session;
    if ((user as { banned?: unknown }).banned === true) throw API_KEY_ERROR_CODES.fail("USER_BANNED", "UNAUTHORIZED");
    const { record, config } = await findOwnedKey(ctx, configs, {
      keyId: ctx.body.keyId,
      configId: ctx.body.configId,
      userId: user.id,
      action: "delete",
    });
    await deleteKey(ctx.context, config, record);
    sweepExpiredKeys(ctx.context);
    return { success: true };
  });
