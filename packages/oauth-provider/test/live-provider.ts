import { serve } from "@hono/node-server";
import { createAuth, type Auth, type LatchkeyOptions } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { jwt } from "@latchkey/jwt";
import { testDatabase, TEST_SECRET, type DatabaseKind } from "@latchkey/test-support";
import type { AddressInfo } from "node:net";
import { oauthProvider, type OAuthOptions } from "../src/index.ts";

/** A provider served over HTTP on 127.0.0.1 (OS port). */
export interface LiveProvider {
  origin: string;
  /** The issuer and base URL, `<origin>/api/auth`. */
  issuer: string;
  auth: Auth;
  close(): Promise<void>;
}

/** A Latchkey provider listening on 127.0.0.1, on a fresh database, with these plugin options. */
export async function liveProvider(
  options: Partial<OAuthOptions> = {},
  extra: Omit<Partial<LatchkeyOptions>, "database" | "baseURL"> = {},
  kind: DatabaseKind = "sqlite",
): Promise<LiveProvider> {
  const db = await testDatabase(kind);
  let auth: Auth | undefined;
  const fetch = (request: Request) => (auth ? auth.handler(request) : Promise.resolve(new Response(null, { status: 503 })));
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, (info: AddressInfo) => {
      const origin = `http://127.0.0.1:${info.port}`;
      auth = createAuth({
        database: kyselyAdapter(db.driver),
        secret: TEST_SECRET,
        baseURL: origin,
        logger: { disabled: true },
        emailAndPassword: { enabled: true },
        ...extra,
        // Further plugins (companions such as an extension) come after the provider.
        plugins: [jwt(), oauthProvider({ loginPage: `${origin}/login`, consentPage: `${origin}/consent`, ...options }), ...(extra.plugins ?? [])],
      });
      void auth.createTables().then(() =>
        resolve({
          origin,
          issuer: `${origin}/api/auth`,
          auth: auth!,
          close: async () => {
            await new Promise<void>((done) => server.close(() => done()));
            await auth!.$context.adapter.close?.();
            await db.drop();
          },
        }),
      );
    });
  });
}

/** A plain HTTP server on 127.0.0.1 answering with `handler` (a client's JWKS, an API). */
export function localServer(handler: (request: Request) => Response | Promise<Response>): Promise<{ origin: string; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: handler, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, (info: AddressInfo) => {
      resolve({ origin: `http://127.0.0.1:${info.port}`, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
