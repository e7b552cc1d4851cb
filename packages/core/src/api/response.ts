import type { Outcome } from "./execute.js";

/** Copies `extra` headers onto `target`; `Set-Cookie` values are appended, never merged. */
export function mergeHeaders(target: Headers, extra: Headers): void {
  for (const cookie of extra.getSetCookie()) target.append("set-cookie", cookie);
  extra.forEach((value, name) => {
    if (name !== "set-cookie") target.set(name, value);
  });
}

/** Turns an endpoint outcome into the HTTP response the reference would send. */
export function toResponse(outcome: Outcome): Response {
  if (outcome.kind === "response") {
    const headers = new Headers(outcome.response.headers);
    mergeHeaders(headers, outcome.headers);
    return new Response(outcome.response.body, {
      status: outcome.response.status,
      statusText: outcome.response.statusText,
      headers,
    });
  }
  if (outcome.kind === "error") {
    const headers = new Headers({ "content-type": "application/json" });
    const { error } = outcome;
    mergeHeaders(headers, error.headers);
    mergeHeaders(headers, outcome.headers);
    return new Response(error.body === undefined ? null : JSON.stringify(error.body), {
      status: error.status,
      // The reference sends the status name it was given (`UNPROCESSABLE_ENTITY`) as status text.
      statusText: error.statusName,
      headers,
    });
  }
  const body = outcome.data === undefined ? null : JSON.stringify(outcome.data);
  return new Response(body, { status: outcome.status, headers: dataHeaders(outcome.headers) });
}

/**
 * The headers of a data answer: JSON's content type, then the endpoint's. Without `Set-Cookie`
 * (the common read, e.g. `/get-session`) a plain record, the same headers as a `Headers` would
 * hold but cheaper to build here and to write out for server adapters that take it as is
 * (@hono/node-server writes a record without walking a `Headers`).
 */
function dataHeaders(extra: Headers): HeadersInit {
  if (!extra.has("set-cookie")) {
    const record: Record<string, string> = { "content-type": "application/json" };
    extra.forEach((value, name) => {
      record[name] = value;
    });
    return record;
  }
  const headers = new Headers({ "content-type": "application/json" });
  mergeHeaders(headers, extra);
  return headers;
}
