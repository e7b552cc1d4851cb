import type { Row } from "./adapter.js";
import type { EndpointContext } from "../api/context.js";
import { applicationCall } from "../api/declared-codes.js";
import { afterCommitOf } from "./after-commit.js";

/** What a database hook sees of the call that caused the write: its endpoint context, or null outside one. */
export type DatabaseHookContext = EndpointContext | null;

/** A before hook may veto (`false`) or patch the data (`{ data }`). */
export type BeforeHook = (data: Row, ctx: DatabaseHookContext) => Promise<boolean | void | { data: Row }> | boolean | void | { data: Row };
/** An after hook sees the written row. */
export type AfterHook = (row: Row, ctx: DatabaseHookContext) => Promise<void> | void;

export interface OperationHooks {
  before?: BeforeHook;
  after?: AfterHook;
}

/** `databaseHooks`: model, then operation, then phase (the reference's shape). */
export type DatabaseHooks = Record<
  string,
  { create?: OperationHooks; update?: OperationHooks; delete?: OperationHooks } | undefined
>;

type Operation = "create" | "update" | "delete";

/** Runs the before hooks of every source in order; returns the data to write, or null on a veto. */
export async function runBefore(
  sources: DatabaseHooks[],
  model: string,
  op: Operation,
  data: Row,
  ctx: DatabaseHookContext,
): Promise<Row | null> {
  let current = data;
  for (const hooks of sources) {
    const hook = hooks[model]?.[op]?.before;
    if (!hook) continue;
    const out = await applicationCall(() => hook(current, ctx));
    if (out === false) return null;
    if (out && typeof out === "object" && "data" in out) current = { ...current, ...out.data };
  }
  return current;
}

/**
 * Runs the after hooks of every source in order. Inside a transaction (`inTransactionContext`)
 * they wait for its commit and then run with the context of the call that opened it, so a hook
 * never sees a write that is later rolled back, and its own writes are not part of the
 * transaction; a rollback drops them.
 */
export async function runAfter(
  sources: DatabaseHooks[],
  model: string,
  op: Operation,
  row: Row,
  ctx: DatabaseHookContext,
): Promise<void> {
  const pending = afterCommitOf(ctx);
  if (!pending) {
    for (const hooks of sources) await hooks[model]?.[op]?.after?.(row, ctx);
    return;
  }
  const hooks = sources.flatMap((source) => source[model]?.[op]?.after ?? []);
  if (hooks.length)
    pending.tasks.push(async () => {
      for (const hook of hooks) await hook(row, pending.outer);
    });
}
