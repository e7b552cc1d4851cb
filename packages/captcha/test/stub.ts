import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the stub received: its content type and decoded fields. */
export interface Received {
  path: string;
  contentType: string;
  fields: Record<string, string>;
}

/** What the stub answers: a status and a body (an object is sent as JSON), after `delay` ms. */
export interface StubAnswer {
  status?: number;
  body?: unknown;
  delay?: number;
  headers?: Record<string, string>;
}

/** A local siteverify endpoint on 127.0.0.1 that records what it receives. */
export interface SiteVerifyStub {
  url: string;
  received: Received[];
  /** Decides the answer for each request (default: `{ success: true }`). */
  answer: (fields: Record<string, string>) => StubAnswer;
  close(): Promise<void>;
}

function decode(contentType: string, raw: string): Record<string, string> {
  if (contentType.startsWith("application/json")) return JSON.parse(raw) as Record<string, string>;
  return Object.fromEntries(new URLSearchParams(raw));
}

/** Starts the stub on an OS-chosen port. */
export async function startSiteVerify(): Promise<SiteVerifyStub> {
  const stub: Omit<SiteVerifyStub, "url" | "close"> = { received: [], answer: () => ({ body: { success: true } }) };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const contentType = req.headers["content-type"] ?? "";
      const fields = decode(contentType, raw);
      stub.received.push({ path: req.url ?? "", contentType, fields });
      const { status = 200, body = { success: true }, delay = 0, headers = {} } = stub.answer(fields);
      setTimeout(() => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(typeof body === "string" ? body : JSON.stringify(body));
      }, delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}/siteverify`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as SiteVerifyStub;
}
