/** The error half of a result: the HTTP status, and the server's `code` and `message` when it sent them. */
export interface ClientError {
  status: number;
  statusText: string;
  /** Stable error code, e.g. `INVALID_EMAIL_OR_PASSWORD`; absent when the server sent none. */
  code?: string;
  message?: string;
  /** Any other field of the error body. */
  [key: string]: unknown;
}

/** What every client method resolves to: `data` on a 2xx answer, `error` otherwise, never both. */
export type ClientResult<T> = { data: T; error: null } | { data: null; error: ClientError };

/** A query-string value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/** Per-call extras every method takes as its last argument. */
export interface RequestOptions {
  /** Added to (and overriding) the client's `fetchOptions.headers`, e.g. an `authorization` header. */
  headers?: HeadersInit;
  signal?: AbortSignal;
}

/** One request as a method describes it: path under the base URL, method, JSON body or query. */
export interface CallOptions extends RequestOptions {
  method: "GET" | "POST";
  /** Sent as JSON on POST; `{}` when absent, as the reference client does. */
  body?: unknown;
  query?: Record<string, QueryValue>;
}

/**
 * Sends one request and reads the answer into a `ClientResult`; what plugin methods are built
 * on. HTTP errors resolve with `error`; only network failures reject.
 *
 * @example
 * const ok = await call<{ ok: boolean }>("/ok", { method: "GET" });
 */
export type Call = <T>(path: string, options: CallOptions) => Promise<ClientResult<T>>;
