import { endpoint, sessionMiddleware } from "@latchkey/core";
import * as v from "valibot";
import { sweepExpiredKeys } from "../expired-sweep.js";
import type { ResolvedConfig } from "../options.js";
import { toPublic } from "../record.js";
import { presentable } from "./present.js";
import { findOwnedKey } from "./owned-key.js";

const query = v.object({ configId: v.optional(v.string()), id: v.string() });

/** `GET /api-key/get?id&configId` (session): the key without its `key`; 404 `KEY_NOT_FOUND` when not the caller's. */
export const getApiKey = (configs: readonly ResolvedConfig[]) =>
  endpoint("/api-key/get", { method: "GET", query, use: [sessionMiddleware] }, async (ctx) => {
    const { record, config } = await findOwnedKey(ctx, configs, {
      keyId: ctx.query.id,
      configId: ctx.query.configId,
      userId: ctx.context.session.user.id,
      action: "read",
    });
    sweepExpiredKeys(ctx.context);
    return toPublic(await presentable(ctx.context, config, record));
  });
