/** The reference's refusal text (core.md §11.2), sent as a JSON string with a text/plain type. */
const BODY = JSON.stringify({ message: "Too many requests. Please try again later." });

/**
 * The 429 exactly as the reference sends it: `X-Retry-After` in seconds and no standard
 * `Retry-After`; the body is a string, so its content type is `text/plain;charset=UTF-8`.
 */
export function tooManyRequests(retryAfter: number): Response {
  return new Response(BODY, {
    status: 429,
    statusText: "Too Many Requests",
    headers: { "content-type": "text/plain;charset=UTF-8", "X-Retry-After": String(retryAfter) },
  });
}
