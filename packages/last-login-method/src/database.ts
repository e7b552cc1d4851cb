import type { DatabaseHooks, SchemaDefinition } from "@latchkey/core";
import type { ResolvedLastLoginMethodOptions } from "./options.js";
import { isEndpointContext, resolveLoginMethod } from "./resolve-method.js";

/** The user column, when `storeInDatabase` is on: optional text, never client-settable. */
export function lastLoginMethodSchema(options: ResolvedLastLoginMethodOptions): SchemaDefinition | undefined {
  if (!options.storeInDatabase) return undefined;
  return {
    user: {
      fields: {
        lastLoginMethod: {
          type: "string",
          required: false,
          input: false,
          fieldName: options.schema?.user?.lastLoginMethod ?? "lastLoginMethod",
        },
      },
    },
  };
}

/**
 * Writes the column: on user creation (the sign-up's method goes in the insert) and after
 * each new session (the sign-in's method). Writes made outside an endpoint call carry no
 * method and are left alone. A failed update is logged and does not fail the sign-in.
 */
export function lastLoginMethodDatabaseHooks(
  options: ResolvedLastLoginMethodOptions,
): DatabaseHooks | undefined {
  if (!options.storeInDatabase) return undefined;
  return {
    user: {
      create: {
        before: (user, ctx) => {
          if (!isEndpointContext(ctx)) return;
          const method = resolveLoginMethod(options, ctx);
          if (method) return { data: { ...user, lastLoginMethod: method } };
        },
      },
    },
    session: {
      create: {
        after: async (session, ctx) => {
          if (!isEndpointContext(ctx)) return;
          const method = resolveLoginMethod(options, ctx);
          const userId = session.userId;
          if (!method || typeof userId !== "string") return;
          try {
            await ctx.context.internalAdapter.updateUser(userId, { lastLoginMethod: method }, ctx);
          } catch (error) {
            ctx.context.logger.error("[LastLoginMethod] could not store lastLoginMethod on the user", error);
          }
        },
      },
    },
  };
}
