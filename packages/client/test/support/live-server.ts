import { serve } from "@hono/node-server";
import { createAuth, memoryAdapter, type Auth, type LatchkeyOptions } from "@latchkey/core";
import type { AddressInfo } from "node:net";

export const SECRET = "client-test-secret-that-is-long-enough-0123456789";

/** A Latchkey server on 127.0.0.1 (OS-chosen port) whose baseURL is its real address. */
export interface LiveLatchkey {
  origin: string;
  auth: Auth;
  close(): Promise<void>;
}

export async function liveLatchkey(options: Partial<LatchkeyOptions> = {}): Promise<LiveLatchkey> {
  let auth: Auth | undefined;
  // The handler is bound once the port, and so the baseURL, is known.
  const fetch = (request: Request): Promise<Response> =>
    auth ? auth.handler(request) : Promise.resolve(new Response(null, { status: 503 }));
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, (info: AddressInfo) => {
      const origin = `http://127.0.0.1:${info.port}`;
      auth = createAuth({
        database: memoryAdapter(),
        secret: SECRET,
        baseURL: origin,
        emailAndPassword: { enabled: true },
        logger: { disabled: true },
        ...options,
      });
      resolve({
        origin,
        auth,
        close: () =>
          new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
      });
    });
  });
}
