import { request as httpRequest } from "node:http";

/** How a bodyless POST travels: curl's `-X POST` (no length at all) or fetch's (`Content-Length: 0`). */
export type BodylessShape = "no-length" | "zero-length";

/** One request as it goes on the wire; `body` undefined sends no body bytes. */
export interface RawRequest {
  method: string;
  /** Path and query, e.g. `/api/auth/sign-out`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** For a bodyless request: whether a `Content-Length: 0` line is sent. @default "zero-length" */
  shape?: BodylessShape;
}

/**
 * Sends one HTTP/1.1 request to `origin` with exactly the given header lines (Node's client
 * adds `Content-Length: 0` to a bodyless POST unless told not to) and returns the answer as
 * a `Response`, every Set-Cookie line kept.
 */
export function sendRaw(origin: string, raw: RawRequest): Promise<Response> {
  const target = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, method: raw.method, path: raw.path, headers: raw.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const headers = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          const status = res.statusCode ?? 0;
          const empty = status === 204 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
        });
      },
    );
    req.on("error", reject);
    if (raw.body === undefined && raw.shape === "no-length") {
      // `curl -X POST`: neither Content-Length nor Transfer-Encoding.
      req.removeHeader("content-length");
      req.removeHeader("transfer-encoding");
    }
    req.end(raw.body);
  });
}
