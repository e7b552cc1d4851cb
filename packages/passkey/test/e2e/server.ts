import { serve } from "@hono/node-server";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { bundlePageScript, testAuth, type TestAuth } from "@latchkey/test-support";
import { passkey } from "../../src/index.ts";

/** The passkey page and its auth server on http://localhost:<port>. */
export interface PageServer {
  origin: string;
  t: TestAuth;
  close(): Promise<void>;
}

/**
 * Starts the page server: `/` the page, `/page.js` its script, everything else the Latchkey
 * instance (email/password and `passkey()` on a fresh SQLite file). The origin is
 * `http://localhost`, a secure context, so WebAuthn is available without TLS.
 */
export async function startPageServer(): Promise<PageServer> {
  const html = readFileSync(new URL("./page.html", import.meta.url), "utf8");
  const script = await bundlePageScript(new URL("./page.ts", import.meta.url).pathname, ["@latchkey/source"]);
  // The instance needs the port for its baseURL, so it is bound after listening.
  const target: { auth?: TestAuth } = {};
  const fetch = (request: Request): Promise<Response> | Response => {
    const { pathname } = new URL(request.url);
    if (pathname === "/") return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    if (pathname === "/page.js") return new Response(script, { headers: { "content-type": "text/javascript" } });
    return target.auth ? target.auth.auth.handler(request) : new Response("starting", { status: 503 });
  };
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, (info: AddressInfo) => resolve({ server: s, port: info.port }));
  });
  const origin = `http://localhost:${port}`;
  const t = await testAuth({ baseURL: origin, emailAndPassword: { enabled: true }, plugins: [passkey()] }, { db: "sqlite" });
  target.auth = t;
  return {
    origin,
    t,
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      await t.close();
    },
  };
}
