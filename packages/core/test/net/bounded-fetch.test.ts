import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedFetch, OutboundFetchError } from "../../src/index.ts";

const SECRET = "tok-s3cr3t-value";
let server: Server;
let base = "";
const seen: string[] = [];
const open = new Set<ServerResponse>();

/** Endless body: 64 KiB chunks until the client goes away. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/json" });
  const chunk = Buffer.alloc(65_536, 0x20);
  const pump = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once("drain", pump);
  };
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    seen.push(path ?? "");
    open.add(res);
    res.on("close", () => open.delete(res));
    switch (path) {
      case "/hang":
        return; // never answers
      case "/hang-body":
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"partial":');
        return; // headers sent, body never finishes
      case "/endless":
        return endless(res);
      case "/declared-huge":
        res.writeHead(200, { "content-type": "application/json", "content-length": String(5 * 1024 * 1024) });
        res.write("{");
        return;
      case "/gzip-bomb":
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        return res.end(gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20)));
      case "/redirect":
        res.writeHead(302, { location: `${base}/json` });
        return res.end();
      case "/no-content":
        res.writeHead(204);
        return res.end();
      case "/error":
        res.writeHead(400, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: "invalid_grant" }));
      default:
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ ok: true, method: req.method }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The error a call fails with, and how long it took. */
async function failure(call: () => Promise<Response>): Promise<{ error: OutboundFetchError; ms: number }> {
  const start = performance.now();
  const error = await call().then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundFetchError);
  return { error: error as OutboundFetchError, ms: performance.now() - start };
}

describe("boundedFetch against a real server", () => {
  it("gives up on a server that never answers within the timeout", async () => {
    const { error, ms } = await failure(() => boundedFetch(`${base}/hang?access_token=${SECRET}`, {}, { timeout: 200 }));
    expect(error.code).toBe("TIMEOUT");
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(2_000);
    // The origin only: path and query may carry tokens.
    expect(error.message).toContain(base);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain("/hang");
  });

  it("counts the body in the timeout: headers then silence is a timeout too", async () => {
    const { error, ms } = await failure(() => boundedFetch(`${base}/hang-body`, {}, { timeout: 200 }));
    expect(error.code).toBe("TIMEOUT");
    expect(ms).toBeLessThan(2_000);
  });

  it("stops reading an endless body at the size cap", async () => {
    const { error, ms } = await failure(() => boundedFetch(`${base}/endless`, {}, { maxBytes: 256 * 1024 }));
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
    expect(ms).toBeLessThan(5_000);
  });

  it("refuses a declared Content-Length over the cap before reading the body", async () => {
    const { error, ms } = await failure(() => boundedFetch(`${base}/declared-huge`, {}, { timeout: 5_000 }));
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
    // Refused at the headers: the body would never complete and the timeout would fire.
    expect(ms).toBeLessThan(2_000);
  });

  it("counts the decoded size: a small gzip body inflating past the cap is refused", async () => {
    const { error } = await failure(() => boundedFetch(`${base}/gzip-bomb`));
    expect(error.code).toBe("RESPONSE_TOO_LARGE");
  });

  it("refuses a redirect and never requests its target", async () => {
    const before = seen.filter((p) => p === "/json").length;
    const { error } = await failure(() => boundedFetch(`${base}/redirect`, { method: "POST", body: "client_secret=x" }));
    expect(error.code).toBe("REDIRECT_REFUSED");
    expect(error.message).toContain("302");
    expect(seen.filter((p) => p === "/json").length).toBe(before);
  });

  it("passes a normal JSON answer through, method and status intact", async () => {
    const response = await boundedFetch(`${base}/json`, { method: "POST", body: "a=b" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ ok: true, method: "POST" });
  });

  it("hands error statuses and empty answers to the caller as answers", async () => {
    const bad = await boundedFetch(`${base}/error`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "invalid_grant" });
    const empty = await boundedFetch(`${base}/no-content`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe("");
  });

  it("reports a refused connection as NETWORK_ERROR with the system code only", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { error } = await failure(() => boundedFetch(`http://127.0.0.1:${port}/token?code=${SECRET}`));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.message).not.toContain(SECRET);
  });

  it("follows the caller's own abort signal (ABORTED, not TIMEOUT)", async () => {
    const { error, ms } = await failure(() => boundedFetch(`${base}/hang`, { signal: AbortSignal.timeout(100) }));
    expect(error.code).toBe("ABORTED");
    expect(ms).toBeLessThan(2_000);
  });

  it("refuses a URL that does not parse without sending anything", async () => {
    const { error } = await failure(() => boundedFetch("not a url"));
    expect(error.code).toBe("INVALID_URL");
  });

  it("uses an injected fetch, still with the limits", async () => {
    const calls: string[] = [];
    const injected = (input: string, init: RequestInit): Promise<Response> => {
      calls.push(input);
      return fetch(input, init);
    };
    const { error } = await failure(() => boundedFetch(`${base}/redirect`, {}, { fetch: injected }));
    expect(error.code).toBe("REDIRECT_REFUSED");
    expect(calls).toEqual([`${base}/redirect`]);
  });
});
