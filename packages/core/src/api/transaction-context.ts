import type { Adapter } from "../db/adapter.js";
import { afterCommitOf, holdAfterCommit, type AfterCommit } from "../db/after-commit.js";
import type { EndpointContext, RequestContext } from "./context.js";

/**
 * Runs `fn` inside one transaction of the database adapter, with a copy of `ctx` whose
 * `context.adapter` is the transaction's adapter and whose `context.internalAdapter` writes
 * through it (database before-hooks included: they receive the copy). A throw from `fn` rolls
 * every write back. After-hooks of the writes inside wait for the commit and then run, in order,
 * with `ctx` (a rollback drops them; a throw from one reaches the caller, the writes stay).
 * Secondary storage is not transactional: callers that write to it inside `fn` must not rely on
 * the rollback for those writes.
 */
export async function inTransactionContext<R>(
  ctx: EndpointContext,
  fn: (trxCtx: EndpointContext, trx: Adapter) => Promise<R>,
): Promise<R> {
  // Nested: the outermost transaction's commit releases everything.
  const enclosing = afterCommitOf(ctx);
  const pending: AfterCommit = enclosing ?? { outer: ctx, tasks: [] };
  const result = await ctx.context.adapter.transaction((trx) => {
    const context = Object.create(ctx.context, {
      adapter: { value: trx, enumerable: true },
      internalAdapter: { value: ctx.context.internalAdapter.boundTo(trx), enumerable: true },
    }) as RequestContext;
    holdAfterCommit(context, pending);
    return fn({ ...ctx, context }, trx);
  });
  if (!enclosing) for (const task of pending.tasks) await task();
  return result;
}
