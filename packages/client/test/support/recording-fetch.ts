import type { FetchLike } from "../../src/index.ts";

/** What the client sent, as the server saw it. */
export interface SentRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body, or null for none. */
  body: unknown;
  headers: Headers;
  credentials: RequestCredentials | undefined;
}

/**
 * A fetch that keeps cookies like a browser (Node's fetch keeps none) and records each
 * request; over real HTTP unless `answer` replies in its place.
 */
export function recordingFetch(answer?: (request: Request) => Response | Promise<Response>) {
  const cookies = new Map<string, string>();
  const sent: SentRequest[] = [];
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const text = init.body === undefined ? "" : String(init.body);
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: text ? (JSON.parse(text) as unknown) : null,
      headers: new Headers(init.headers),
      credentials: init.credentials,
    });
    if (cookies.size && !request.headers.has("cookie")) {
      request.headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const response = answer ? await answer(request) : await globalThis.fetch(request);
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === "" || /;\s*max-age=0/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  return { fetch, sent, cookies, last: (): SentRequest => sent[sent.length - 1]! };
}
