import { jarFetch, type JarFetch } from "./client-fetch.ts";
import { BASE_PATH, createPair, type Pair, type PairOptions } from "./instances.ts";
import { listen } from "./server.ts";

/** A pair served over real HTTP on 127.0.0.1, one side answering, and a cookie-keeping fetch for a client. */
export interface LivePair {
  pair: Pair;
  /** The auth base URL a client is given: `http://127.0.0.1:<port>/api/auth`. */
  baseURL: string;
  /** Pass `jar.fetch` as the reference client's `customFetchImpl`. */
  jar: JarFetch;
  close(): Promise<void>;
}

/**
 * Builds a pair whose base URL is a listening server's origin and points the server at `side`:
 * what a client-plugin test needs to run the reference's client against either implementation.
 */
export async function livePair(side: "reference" | "latchkey", options: Omit<PairOptions, "baseURL">): Promise<LivePair> {
  const server = await listen();
  const pair = await createPair({ ...options, baseURL: server.origin });
  server.use(pair[side]);
  return {
    pair,
    baseURL: `${server.origin}${BASE_PATH}`,
    jar: jarFetch(),
    close: async () => {
      pair.close();
      await server.close();
    },
  };
}
