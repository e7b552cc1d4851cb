import { readCappedBody } from "./capped-body.js";
import { OutboundFetchError } from "./outbound-fetch-error.js";

/** Time limit of one server-side request, headers and body together, in milliseconds. */
export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;

/** Largest response body a server-side request accepts, in bytes (1 MiB). */
export const DEFAULT_FETCH_MAX_BYTES = 1_048_576;

/** A `fetch` implementation, as an option may inject one. */
export type FetchImplementation = (input: string, init: RequestInit) => Promise<Response>;

/** Limits of one {@link boundedFetch} call. */
export interface BoundedFetchOptions {
  /** Milliseconds until the request, body included, is given up. @default 10000 */
  timeout?: number | undefined;
  /** Largest accepted response body in bytes (decoded). @default 1048576 */
  maxBytes?: number | undefined;
  /** The fetch to call, when an option injects one. @default globalThis.fetch */
  fetch?: FetchImplementation | undefined;
}

// Fetch §2.2.2: these statuses carry no body, and `new Response()` refuses one for them.
const NULL_BODY_STATUS = new Set([204, 205, 304]);

/** A short system error code (`ECONNREFUSED`) from a network failure, never its message. */
function systemCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = cause?.code;
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : "";
}

/**
 * The one way core and plugins call other servers (token endpoints, UserInfo, discovery,
 * JWKS, revocation, back-channel logout, breach and captcha checks). Compared with a bare
 * `fetch`, it:
 * - gives up after `timeout` ms, headers and body together, so a silent peer cannot hold a
 *   request (and the user's sign-in) open forever;
 * - refuses a body over `maxBytes`: early from `Content-Length`, otherwise while streaming;
 * - never follows a redirect: the URL comes from configuration or discovery, and following a
 *   3xx would let whoever controls it bounce the request, client secret included, to an
 *   internal address (SSRF). `redirect: "manual"` works on every runtime (workerd refuses
 *   `redirect: "error"`), and a 3xx answer is then an error;
 * - throws {@link OutboundFetchError} with a stable `code` for each of these and for network
 *   failures. HTTP error statuses are answers, not failures: the caller reads them.
 * The answer comes back as a `Response` whose body is already in memory.
 */
export async function boundedFetch(
  url: string | URL,
  init: RequestInit = {},
  options: BoundedFetchOptions = {},
): Promise<Response> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutboundFetchError("INVALID_URL", "", "was not sent");
  }
  const origin = target.origin;
  const timeout = options.timeout ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_FETCH_MAX_BYTES;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  const callerSignal = init.signal ?? undefined;
  const onCallerAbort = (): void => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const failure = (error: unknown): OutboundFetchError => {
    if (error instanceof OutboundFetchError) return error;
    if (timedOut) return new OutboundFetchError("TIMEOUT", origin, `timed out after ${timeout} ms`);
    if (callerSignal?.aborted) return new OutboundFetchError("ABORTED", origin, "was aborted");
    return new OutboundFetchError("NETWORK_ERROR", origin, `failed${systemCode(error)}`);
  };
  try {
    const send = options.fetch ?? fetch;
    const response = await send(target.href, { ...init, redirect: "manual", signal: controller.signal });
    // Browsers hide a manual redirect behind an "opaqueredirect" answer with status 0.
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      throw new OutboundFetchError("REDIRECT_REFUSED", origin, `answered a redirect (${response.status})`);
    }
    if (response.status < 200 || response.status > 599) {
      throw new OutboundFetchError("NETWORK_ERROR", origin, "answered an invalid status");
    }
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > maxBytes) {
      throw new OutboundFetchError("RESPONSE_TOO_LARGE", origin, `declared a body over ${maxBytes} bytes`);
    }
    const body =
      response.body && !NULL_BODY_STATUS.has(response.status)
        ? await readCappedBody(response.body, maxBytes)
        : new Uint8Array(0);
    if (body === null) {
      throw new OutboundFetchError("RESPONSE_TOO_LARGE", origin, `sent a body over ${maxBytes} bytes`);
    }
    const headers = new Headers(response.headers);
    // The body is already decoded and complete: these would describe the wire form.
    headers.delete("content-encoding");
    headers.delete("content-length");
    return new Response(NULL_BODY_STATUS.has(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  } catch (error) {
    // Tear down the connection (and any body still arriving) on every failure.
    controller.abort();
    throw failure(error);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  }
}
