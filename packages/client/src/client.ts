import { resolveBaseURL } from "./base-url.js";
import { coreMethods, type CoreMethods } from "./core-methods.js";
import { mergeMethods, type PluginList, type WithPlugins } from "./plugins.js";
import type { Call } from "./result.js";
import { createTransport, type FetchLike } from "./transport.js";

/** Options of `createAuthClient`. */
export interface AuthClientOptions<M extends readonly object[] = readonly object[]> {
  /**
   * The server's origin (`https://app.example`), or its full auth URL when it has a path.
   * @default none: paths are relative to the page (browsers only)
   */
  baseURL?: string;
  /**
   * Where the auth routes are mounted; ignored when `baseURL` has a path of its own.
   * @default "/api/auth"
   */
  basePath?: string;
  /**
   * The fetch to send requests with, e.g. one that keeps cookies outside a browser.
   * @default globalThis.fetch
   */
  fetch?: FetchLike;
  /** Sent with every request. */
  fetchOptions?: {
    headers?: HeadersInit;
    /** @default "include" where the runtime's `Request` supports it (browsers, Node), else unset */
    credentials?: RequestCredentials;
  };
  /** Client plugins; their methods are added to the client. */
  plugins?: PluginList<M>;
}

/** The client: core and account methods, each plugin's methods record `M[i]`, and `$fetch` for any other route. */
export type AuthClient<M extends readonly object[] = []> = WithPlugins<CoreMethods, M> & {
  /** Calls any route under the base URL: `$fetch("/ok", { method: "GET" })`. */
  $fetch: Call;
};

/**
 * Creates a typed HTTP client for a Latchkey (or Better Auth) server. Every method resolves to
 * `{ data, error }` and never throws for an HTTP error; arguments are sent as the JSON body
 * (the query string for GET routes).
 *
 * @example
 * const client = createAuthClient({ baseURL: "https://app.example" });
 * const { data, error } = await client.signIn.email({ email, password });
 */
export function createAuthClient<const M extends readonly object[] = []>(
  options: AuthClientOptions<M> = {},
): AuthClient<M> {
  const call = createTransport({
    root: resolveBaseURL(options.baseURL, options.basePath),
    fetch: options.fetch,
    headers: options.fetchOptions?.headers,
    credentials: options.fetchOptions?.credentials,
  });
  const client = { ...coreMethods(call), $fetch: call } as unknown as Record<string, unknown>;
  const owners = new Map<string, string>();
  const ids = new Set<string>();
  for (const plugin of options.plugins ?? []) {
    if (ids.has(plugin.id)) throw new TypeError(`Client plugin "${plugin.id}" is listed twice.`);
    ids.add(plugin.id);
    const methods = plugin.methods?.(call);
    if (methods) mergeMethods(client, methods as Record<string, unknown>, owners, plugin.id);
  }
  return client as AuthClient<M>;
}
