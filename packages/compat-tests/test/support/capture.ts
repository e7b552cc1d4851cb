import { responseCookies, type ParsedCookie } from "./cookies.ts";

/** Headers whose values are compared; others (date, content-length) are transport detail. */
export const COMPARED_HEADERS = [
  "content-type",
  "location",
  "cache-control",
  "pragma",
  "x-retry-after",
] as const;

/** What a test sees of one response. */
export interface Captured {
  status: number;
  headers: Record<(typeof COMPARED_HEADERS)[number], string | null>;
  /** `json` when the body parses as JSON, `text` otherwise, `empty` for no body at all. */
  bodyKind: "json" | "text" | "empty";
  body: unknown;
  setCookie: ParsedCookie[];
}

/** Reads status, the compared headers, the body (parsed) and the parsed Set-Cookie lines. */
export async function capture(response: Response): Promise<Captured> {
  const text = await response.text();
  let bodyKind: Captured["bodyKind"] = text === "" ? "empty" : "text";
  let body: unknown = text === "" ? null : text;
  if (text !== "") {
    try {
      body = JSON.parse(text) as unknown;
      bodyKind = "json";
    } catch {
      // not JSON: keep the text
    }
  }
  const headers = Object.fromEntries(
    COMPARED_HEADERS.map((h) => [h, response.headers.get(h)]),
  ) as Captured["headers"];
  return { status: response.status, headers, bodyKind, body, setCookie: responseCookies(response) };
}

/** The `code` of a JSON error body, if there is one. */
export function errorCode(captured: Captured): unknown {
  const body = captured.body;
  return body && typeof body === "object" && "code" in body ? body.code : undefined;
}

/** Only the status and the parsed body of a response (when headers are compared elsewhere or differ by a row). */
export async function statusAndBody(response: Response): Promise<{ status: number; body: unknown }> {
  const got = await capture(response);
  return { status: got.status, body: got.body };
}
