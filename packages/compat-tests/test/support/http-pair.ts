import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { toNodeHandler } from "better-auth/node";
import { createPair, SECRET, BASE_URL, type Pair, type PairOptions } from "./instances.ts";
import { listen } from "./server.ts";

/** A pair served as each is deployed on Node: the reference by its Node adapter, Latchkey by @hono/node-server. */
export interface HttpPair {
  pair: Pair;
  /** `http://127.0.0.1:<port>` of the reference's server. */
  reference: string;
  /** `http://127.0.0.1:<port>` of Latchkey's server. */
  latchkey: string;
  close(): Promise<void>;
}

/**
 * `createPair` behind two real HTTP servers. The reference runs behind `toNodeHandler`
 * (better-auth/node), the adapter its Node users mount, so what it does with a request's
 * transport (a POST without a body, `Content-Length: 0`) is part of the comparison.
 */
export async function createHttpPair(options: PairOptions = {}): Promise<HttpPair> {
  const pair = await createPair(options);
  const referenceServer = createServer(toNodeHandler(pair.reference));
  await new Promise<void>((done) => referenceServer.listen(0, "127.0.0.1", done));
  const latchkeyServer = await listen();
  latchkeyServer.use(pair.latchkey);
  return {
    pair,
    reference: `http://127.0.0.1:${(referenceServer.address() as AddressInfo).port}`,
    latchkey: latchkeyServer.origin,
    async close() {
      await new Promise<void>((done) => referenceServer.close(() => done()));
      await latchkeyServer.close();
      pair.close();
    },
  };
}

/**
 * The reference's HTTP POST routes (`METHOD path` under basePath) for a set of options, read
 * from a throwaway instance without a database: its `api` endpoints minus server-only ones.
 */
export function referencePostRoutes(options: Partial<BetterAuthOptions>): string[] {
  const auth = betterAuth({
    secret: SECRET,
    baseURL: BASE_URL,
    emailAndPassword: { enabled: true },
    ...options,
  });
  const paths = new Set<string>();
  for (const endpoint of Object.values(auth.api as Record<string, unknown>)) {
    const ep = endpoint as {
      path?: string;
      options?: { method?: string | string[]; metadata?: { SERVER_ONLY?: boolean } };
    };
    if (!ep.path || ep.options?.metadata?.SERVER_ONLY) continue;
    const methods = [ep.options?.method ?? []].flat();
    if (methods.includes("POST") || methods.includes("*")) paths.add(ep.path);
  }
  return [...paths].sort();
}
