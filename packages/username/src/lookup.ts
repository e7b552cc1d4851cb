import type { EndpointContext, User } from "@latchkey/core";

/** The user stored under this (already normalised) username, or null. */
export function findByUsername(ctx: Pick<EndpointContext, "context">, username: string): Promise<User | null> {
  return ctx.context.adapter.findOne<User>({ model: "user", where: [{ field: "username", value: username }] });
}
