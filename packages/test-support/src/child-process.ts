import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { createServer } from "node:net";

/** Asks the OS for a free loopback port; the small race until a child binds it is acceptable in tests. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

/** One GET on a fresh connection (no keep-alive agent, so a cold start is timed honestly). */
function get(url: string): Promise<{ status: number; body: string } | Error> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", resolve);
    req.end();
  });
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * Polls `<origin>/api/auth/ok` until it answers `200 {"ok":true}`. `origin` may be unknown at
 * first (a child that prints the port it bound). Rejects when the child exits or time runs out,
 * with the last answer seen.
 */
export async function waitForOk(
  child: ChildProcess,
  origin: () => string | undefined,
  { pollMs = 100, timeoutMs = 60_000 }: { pollMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = "no answer yet";
  while (performance.now() < deadline) {
    if (exited(child)) throw new Error(`exited (${child.exitCode ?? child.signalCode})`);
    const base = origin();
    if (base !== undefined) {
      const answer = await get(`${base}/api/auth/ok`);
      if (answer instanceof Error) last = answer.message;
      else if (answer.status === 200 && answer.body.replace(/\s/g, "") === '{"ok":true}') return;
      else last = `${answer.status} ${answer.body.slice(0, 200)}`;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`GET /api/auth/ok did not answer {"ok":true} within ${timeoutMs} ms (last: ${last})`);
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the child is gone. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const gone = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await gone;
  clearTimeout(timer);
}
