import { CookieJar } from "./cookies.ts";

/** A fetch that keeps cookies like a browser would, and records what it sent and got. */
export interface JarFetch {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  jar: CookieJar;
  /** `METHOD path → status` for each call, to assert the client used the expected routes. */
  calls: string[];
}

/**
 * The client's `customFetchImpl`: Node's fetch has no cookie store, so this one stores
 * Set-Cookie and sends the Cookie header, over real HTTP to the listening server.
 */
export function jarFetch(): JarFetch {
  const jar = new CookieJar();
  const calls: string[] = [];
  const fetchWithJar = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const cookie = jar.header();
    if (cookie) request.headers.set("cookie", cookie);
    const response = await fetch(request);
    jar.store(response);
    calls.push(`${request.method} ${new URL(request.url).pathname} → ${response.status}`);
    return response;
  };
  return { fetch: fetchWithJar, jar, calls };
}
