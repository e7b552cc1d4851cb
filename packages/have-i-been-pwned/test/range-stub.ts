import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Upper-case hex SHA-1, computed independently of the code under test. */
export const sha1 = (text: string): string => createHash("sha1").update(text, "utf8").digest("hex").toUpperCase();

/** One range request as the stub saw it. */
export interface RangeRequest {
  path: string;
  addPadding: string | undefined;
  userAgent: string | undefined;
}

/** A local Pwned Passwords range API on 127.0.0.1. */
export interface RangeStub {
  /** Base URL to give `rangeURL` (ends with `/range/`). */
  url: string;
  requests: RangeRequest[];
  /** Passwords the stub reports as breached, with their counts. */
  breached: Map<string, number>;
  /** Replaces the normal answer (status, body, delay), e.g. to fail. */
  override: { status?: number; body?: string; delay?: number } | null;
  close(): Promise<void>;
}

/** Starts the stub. Answers list the breached suffixes under the prefix plus decoys of count 0. */
export async function startRangeStub(): Promise<RangeStub> {
  const state = { requests: [] as RangeRequest[], breached: new Map<string, number>(), override: null as RangeStub["override"] };
  const server: Server = createServer((req, res) => {
    state.requests.push({
      path: req.url ?? "",
      addPadding: req.headers["add-padding"] as string | undefined,
      userAgent: req.headers["user-agent"],
    });
    const prefix = (req.url ?? "").split("/").pop() ?? "";
    const lines = ["0018A45C4D1DEF81644B54AB7F969B88D65:0", "00D4F6E8FA6EECAD2A3AA415EEC418D38EC:0"];
    for (const [password, count] of state.breached) {
      const hash = sha1(password);
      if (hash.startsWith(prefix)) lines.push(`${hash.slice(5)}:${count}`);
    }
    const { status = 200, body = lines.join("\r\n"), delay = 0 } = state.override ?? {};
    setTimeout(() => {
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(body);
    }, delay);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/range/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
