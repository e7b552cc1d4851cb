import type { EndpointContext } from "../api/context.js";

/**
 * Runs an application mail sender the way the reference's `runInBackgroundOrAwait` does for
 * the flows that promise "check your email": awaited, and a failure is logged and swallowed
 * so the answer stays the same whether or not the mail went out (no enumeration through
 * errors). Only the error's class is logged: a sender's message may quote the address.
 */
export async function deliver(ctx: EndpointContext, mail: string, send: () => Promise<void>): Promise<void> {
  try {
    await send();
  } catch (error) {
    const kind = error instanceof Error ? error.name : typeof error;
    ctx.context.logger.error(`Failed to send the ${mail} mail (${kind}); see the sender's own logs.`);
  }
}

/**
 * Runs `work` and answers no sooner than `ms` after the start, whatever it did: an unknown
 * email (fast) and a known one (a slow mail send) then take the same time. An error is
 * rethrown after the same wait.
 */
export async function withMinimumDuration<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const start = Date.now();
  let outcome: { value: T } | { error: unknown };
  try {
    outcome = { value: await work() };
  } catch (error) {
    outcome = { error };
  }
  const remaining = ms - (Date.now() - start);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}
