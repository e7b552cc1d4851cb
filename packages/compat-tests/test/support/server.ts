import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Handler } from "./instances.ts";

/** A real HTTP server on 127.0.0.1 with an OS-chosen port; the handler is bound after listening. */
export interface LiveServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Sets the handler requests go to (the instance's baseURL needs the port first). */
  use(handler: Handler): void;
  close(): Promise<void>;
}

export async function listen(): Promise<LiveServer> {
  let target: Handler | undefined;
  const fetch = (request: Request): Promise<Response> =>
    target ? target(request) : Promise.resolve(new Response("no handler yet", { status: 503 }));
  return new Promise((resolve) => {
    // Node's own Request/Response stay global: by default @hono/node-server swaps in its own for
    // the whole process, and the files after this one in the worker would answer with them.
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, (info: AddressInfo) => {
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        use: (handler) => {
          target = handler;
        },
        close: () =>
          new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
      });
    });
  });
}
