import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A small HTTP server on 127.0.0.1 answering crafted discovery documents. */
export interface DocumentServer {
  origin: string;
  /** Paths requested, in order. */
  paths: string[];
  /** What `POST /token` answers (JSON, 200). */
  tokenResponse: Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * `/redirect` answers 302 to `/elsewhere`, `/not-json` plain text, `/other-issuer` a document
 * naming another issuer, `/doc` a complete document for this origin whose token endpoint only
 * takes `private_key_jwt`, `/token` the `tokenResponse` the test sets, `/token-redirect` a 307.
 */
export async function startDocumentServer(): Promise<DocumentServer> {
  const paths: string[] = [];
  let origin = "";
  const document = (issuer: string) => ({
    issuer,
    authorization_endpoint: `${origin}/auth`,
    token_endpoint: `${origin}/token`,
    jwks_uri: `${origin}/jwks`,
    token_endpoint_auth_methods_supported: ["private_key_jwt"],
  });
  const state: DocumentServer = { origin: "", paths, tokenResponse: {}, close: async () => {} };
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    paths.push(path);
    if (path === "/token")
      return response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify(state.tokenResponse));
    if (path === "/token-redirect") return response.writeHead(307, { location: `${origin}/token` }).end();
    if (path === "/redirect") return response.writeHead(302, { location: `${origin}/elsewhere` }).end();
    if (path === "/not-json") return response.writeHead(200, { "content-type": "text/plain" }).end("hello");
    const body =
      path === "/other-issuer" ? document("https://someone.else") : path === "/doc" ? document(origin) : null;
    if (!body) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.origin = origin;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
