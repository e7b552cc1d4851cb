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
  const headers = new Headers({ "content-type": "application/json" });
  if (outcome.kind === "error") {
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
  mergeHeaders(headers, outcome.headers);
  const body = outcome.data === undefined ? null : JSON.stringify(outcome.data);
  return new Response(body, { status: outcome.status, headers });
}
