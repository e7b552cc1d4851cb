import { parseBody } from "./json.js";
import type { Call, CallOptions, ClientError, ClientResult, QueryValue } from "./result.js";

/** The fetch the client uses: the global one by default, or any function of this shape. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Settings shared by every request of one client. */
export interface TransportOptions {
  root: string;
  fetch?: FetchLike | undefined;
  headers?: HeadersInit | undefined;
  credentials?: RequestCredentials | undefined;
}

// Browsers need `credentials: "include"` to send cookies to another origin. Some runtimes
// (Cloudflare Workers) throw on the field, so set it only where `Request` knows it, as the
// reference client does.
const supportsCredentials = (): boolean =>
  typeof Request !== "undefined" && "credentials" in Request.prototype;

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Builds the error of a non-2xx answer: the JSON body's fields, then status and status text. */
function toError(response: Response, body: unknown): ClientError {
  const fields = isRecord(body) ? body : {};
  return { ...fields, status: response.status, statusText: response.statusText };
}

/** Creates the `Call` of one client. */
export function createTransport(options: TransportOptions): Call {
  const credentials = options.credentials ?? (supportsCredentials() ? "include" : undefined);
  return async <T>(path: string, call: CallOptions): Promise<ClientResult<T>> => {
    const headers = new Headers(options.headers);
    new Headers(call.headers).forEach((value, name) => headers.set(name, value));
    const init: RequestInit = { method: call.method, headers };
    if (credentials) init.credentials = credentials;
    if (call.signal) init.signal = call.signal;
    if (call.method !== "GET") {
      if (!headers.has("content-type")) headers.set("content-type", "application/json");
      init.body = JSON.stringify(call.body ?? {});
    }
    const url = `${options.root}${path}${queryString(call.query)}`;
    // Looked up per call, not captured: a fetch replaced after start-up (tests, polyfills) is used.
    const response = await (options.fetch ? options.fetch(url, init) : globalThis.fetch(url, init));
    const body = parseBody(await response.text());
    if (response.ok) return { data: body as T, error: null };
    return { data: null, error: toError(response, body) };
  };
}
