import type { Adapter, EndpointContext } from "@latchkey/core";

/**
 * Runs `fn` in one transaction that first takes the organization's row lock, so every change
 * to an organization's members, invitations, teams and roles happens one at a time, each
 * seeing the others' committed results:
 * - the lock is an `UPDATE` of the organization row that writes its own id back: PostgreSQL
 *   and MariaDB hold the row lock until commit, SQLite serializes whole transactions;
 * - it is the transaction's first statement, so on MariaDB (REPEATABLE READ) the snapshot of
 *   the reads that follow is taken after the lock is granted, never before.
 * Checks made inside `fn` (is the caller still a member, still allowed, is there a seat left,
 * is the invitation still pending) therefore hold for the write that follows them. An
 * organization that does not exist takes no lock; `fn` then finds nothing and refuses.
 */
export async function withOrganizationLock<R>(
  ctx: EndpointContext,
  organizationId: string,
  fn: (db: Adapter) => Promise<R>,
): Promise<R> {
  return ctx.context.adapter.transaction(async (db) => {
    await db.update({
      model: "organization",
      where: [{ field: "id", value: organizationId }],
      update: { id: organizationId },
    });
    return fn(db);
  });
}
