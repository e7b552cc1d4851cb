import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** One request the provider emulator received. */
export interface ProviderRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** Form fields (token requests) or parsed JSON, else the raw text. */
  form: URLSearchParams;
  json: unknown;
  text: string;
}

/** An answer of the emulator. */
export interface ProviderAnswer {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export type Route = (request: ProviderRequest) => ProviderAnswer | Promise<ProviderAnswer>;

/**
 * An OAuth 2.0 provider emulator on 127.0.0.1 (a real HTTP server the provider under test
 * talks to through its `endpoints` option): `/authorize` redirects straight back with a
 * code, `/token` answers a token response, every other route is the test's. It records each
 * request so tests can check what a provider sends (PKCE, client authentication, headers).
 */
export interface FakeProvider {
  origin: string;
  /** `${origin}${path}` */
  url(path: string): string;
  requests: ProviderRequest[];
  /** The last request to `path`. */
  last(path: string): ProviderRequest | undefined;
  /** Answers `METHOD /path` (method optional: any). Replaces an earlier route. */
  on(route: string, answer: Route | ProviderAnswer): void;
  /** The token response `/token` answers with (merged over the default). */
  tokens: Record<string, unknown>;
  close(): Promise<void>;
}

/** Answers `/authorize`-like routes by redirecting straight back with `params` (a fixed code, extras) and the state. */
export const redirectBack =
  (params: Record<string, string>): Route =>
  ({ query }) => {
    const back = new URL(query.get("redirect_uri") ?? "http://invalid.test/");
    for (const [name, value] of Object.entries(params)) back.searchParams.set(name, value);
    const state = query.get("state");
    if (state) back.searchParams.set("state", state);
    return { status: 302, headers: { location: back.href } };
  };

/**
 * The suite's emulator: routes can be added at once, it listens from the suite's `beforeAll`
 * (so `origin`/`url()` are usable inside tests, not at collection time), starts each test with
 * the default token response and closes in `afterAll`.
 */
export function useFakeProvider(): FakeProvider {
  const { fake, listen } = createFakeProvider();
  beforeAll(listen);
  beforeEach(() => {
    fake.tokens = {};
  });
  afterAll(() => fake.close());
  return fake;
}

/** An emulator listening on a free port of 127.0.0.1. */
export async function startFakeProvider(): Promise<FakeProvider> {
  const { fake, listen } = createFakeProvider();
  await listen();
  return fake;
}

function createFakeProvider(): { fake: FakeProvider; listen: () => Promise<void> } {
  const routes = new Map<string, Route>();
  const requests: ProviderRequest[] = [];
  let codeCounter = 0;
  const fake: FakeProvider = {
    origin: "",
    url: (path) => `${fake.origin}${path}`,
    requests,
    last: (path) => requests.filter((r) => r.path === path).at(-1),
    on(route, answer) {
      routes.set(route, typeof answer === "function" ? answer : () => answer);
    },
    tokens: {},
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  routes.set("GET /authorize", (request) => redirectBack({ code: `code-${++codeCounter}` })(request));
  routes.set("POST /token", () => ({
    json: {
      access_token: "access-token-1",
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: "refresh-token-1",
      ...fake.tokens,
    },
  }));

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const text = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const request: ProviderRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        form: new URLSearchParams(json === undefined ? text : ""),
        json,
        text,
      };
      requests.push(request);
      const route = routes.get(`${request.method} ${request.path}`) ?? routes.get(request.path);
      Promise.resolve(route ? route(request) : { status: 404, json: { error: "not_found" } })
        .then((answer) => {
          const headers: Record<string, string> = { ...answer.headers };
          let body = answer.text ?? "";
          if (answer.json !== undefined) {
            headers["content-type"] ??= "application/json";
            body = JSON.stringify(answer.json);
          }
          res.writeHead(answer.status ?? 200, headers).end(body);
        })
        .catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  });
  const listen = async (): Promise<void> => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  return { fake, listen };
}
