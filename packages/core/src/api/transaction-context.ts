import type { Adapter } from "../db/adapter.js";
import type { EndpointContext, RequestContext } from "./context.js";

/**
 * Runs `fn` inside one transaction of the database adapter, with a copy of `ctx` whose
 * `context.adapter` is the transaction's adapter and whose `context.internalAdapter` writes
 * through it (database hooks included: they receive the copy). A throw from `fn` rolls every
 * write back. Secondary storage is not transactional: callers that write to it inside `fn`
 * must not rely on the rollback for those writes.
 */
export function inTransactionContext<R>(
  ctx: EndpointContext,
  fn: (trxCtx: EndpointContext, trx: Adapter) => Promise<R>,
): Promise<R> {
  return ctx.context.adapter.transaction((trx) => {
    const context = Object.create(ctx.context, {
      adapter: { value: trx, enumerable: true },
      internalAdapter: { value: ctx.context.internalAdapter.boundTo(trx), enumerable: true },
    }) as RequestContext;
    return fn({ ...ctx, context }, trx);
  });
}
