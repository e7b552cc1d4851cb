import type { Auth } from "@latchkey/core";
import { browserFetch, CookieJar } from "./cookie-jar.js";

/** A fetch bound to one instance's handler, keeping a browser's cookies. */
export interface HandlerFetch {
  /** Pass as `@latchkey/client`'s `fetch`: sends the request to `auth.handler`, no socket. */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  jar: CookieJar;
}

/**
 * What client-plugin tests give `createAuthClient({ fetch })`: each request carries the jar's
 * cookies, and each answer's Set-Cookie lines go back into it, as a browser would.
 *
 * @example
 * const client = createAuthClient({ baseURL: TEST_BASE_URL, fetch: handlerFetch(t.auth).fetch, plugins: [magicLinkClient()] });
 */
export function handlerFetch(auth: Auth, jar = new CookieJar()): HandlerFetch {
  return { jar, fetch: browserFetch((request) => auth.handler(request), jar) };
}
