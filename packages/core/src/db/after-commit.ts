import type { EndpointContext, RequestContext } from "../api/context.js";

const PENDING = Symbol("latchkey.afterCommit");

/** Work held back until the transaction a context belongs to commits. */
export interface AfterCommit {
  /** The context of the call that opened the transaction: what deferred work runs with. */
  readonly outer: EndpointContext;
  readonly tasks: Array<() => Promise<void>>;
}

/** The pending work of the transaction `ctx` runs in, or undefined outside one. */
export function afterCommitOf(ctx: EndpointContext | null | undefined): AfterCommit | undefined {
  return (ctx?.context as { [PENDING]?: AfterCommit } | undefined)?.[PENDING];
}

/** Marks `context` (a transaction's copy of a request context) as holding `pending`. */
export function holdAfterCommit(context: RequestContext, pending: AfterCommit): void {
  Object.defineProperty(context, PENDING, { value: pending, enumerable: false });
}
