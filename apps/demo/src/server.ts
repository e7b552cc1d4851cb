import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import type { AddressInfo } from "node:net";
import { renderPage } from "./page.js";

/** The one thing the demo needs from an auth instance: its web-standard fetch handler. */
export interface AuthHandler {
  handler(request: Request): Promise<Response>;
}

/** The demo's routes: every `/api/auth/*` request goes to `auth.handler`, `/` is the page. */
export function createDemoApp(auth: AuthHandler): Hono {
  const app = new Hono();
  const page = renderPage();
  app.all("/api/auth/*", (c) => auth.handler(c.req.raw));
  app.get("/", (c) => c.html(page));
  return app;
}

/** Serves `app` on `port` (0 picks a free one) and resolves once it is listening. */
export function listen(app: Hono, port: number): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port }, (info: AddressInfo) =>
      resolve({ server, port: info.port }),
    );
    server.once("error", reject);
  });
}
