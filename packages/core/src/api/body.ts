import { APIError } from "../errors/api-error.js";
import { readCappedBody } from "../net/capped-body.js";

/** Largest request body read, in bytes; auth bodies are small. */
export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json/;

/**
 * Reads a request body the way the reference does when served over HTTP: a body of zero bytes
 * is no body at all (undefined), then content types the endpoint does not allow are refused
 * (415), malformed JSON answers 400, and url-encoded forms become an object of strings.
 */
export async function readBody(request: Request, allowed: readonly string[], formMembers: "last" | "all" = "last"): Promise<unknown> {
  // GET and HEAD never carry a body (Fetch forbids one), and asking for `body` is not free:
  // a lazily built request (@hono/node-server's) builds its whole native Request to answer it.
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return undefined;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  // The reference's Node adapter hands its router no body for `Content-Length: 0` or an
  // HTTP/1 request without length or Transfer-Encoding (`curl -X POST`, `fetch` without a
  // body): such a POST is an empty input (200 on /sign-out, 400 VALIDATION_ERROR where fields
  // are required), never 415 or "Invalid JSON". Node servers in front of `auth.handler` give
  // every POST a stream, so the rule is read off the bytes, whatever the transport.
  const text = await readLimited(request);
  if (!text) return undefined;
  const header = request.headers.get("content-type") ?? "";
  const type = header.toLowerCase();
  const base = type.split(";")[0]?.trim() ?? "";
  if (allowed.length && !allowed.some((a) => base === a || base.includes(a))) {
    const list = allowed.join(", ");
    throw new APIError(415, {
      message: type
        ? `Content-Type "${header}" is not allowed. Allowed types: ${list}`
        : `Content-Type is required. Allowed types: ${list}`,
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  }
  if (JSON_TYPE.test(type)) {
    try {
      // Whitespace only is not empty: "Invalid JSON", as the reference answers it.
      return JSON.parse(text) as unknown;
    } catch {
      throw new APIError(400, { message: "Invalid JSON in request body", code: "BAD_REQUEST" });
    }
  }
  if (type.includes("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(text);
    return formMembers === "all" ? collectMembers(form) : Object.fromEntries(form);
  }
  return text;
}

/** Reads at most MAX_BODY_BYTES, whatever Content-Length claimed. */
async function readLimited(request: Request): Promise<string> {
  const bytes = await readCappedBody(request.body!, MAX_BODY_BYTES);
  if (!bytes) throw tooLarge();
  return new TextDecoder().decode(bytes);
}

const tooLarge = (): APIError =>
  new APIError("PAYLOAD_TOO_LARGE", { message: "Request body is too large", code: "PAYLOAD_TOO_LARGE" });

/** Query parameters of a request URL as an object; a repeated key becomes an array. */
export function readQuery(url: string): Record<string, string | string[]> {
  // Most auth requests have no query string: no URL to parse for them.
  if (!url.includes("?")) return {};
  return collectMembers(new URL(url).searchParams);
}

/** Every member of url-encoded parameters; a key given more than once becomes an array, in order. */
function collectMembers(params: URLSearchParams): Record<string, string | string[]> {
  const members: Record<string, string | string[]> = {};
  params.forEach((value, key) => {
    // Own members only, defined rather than assigned: a `__proto__` key is a member like any other.
    const prior = Object.hasOwn(members, key) ? members[key] : undefined;
    // Appended in place: a body of many repeats of one key stays linear.
    if (Array.isArray(prior)) prior.push(value);
    else {
      const next = prior === undefined ? value : [prior, value];
      Object.defineProperty(members, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
  });
  return members;
}
