import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The Pwned Passwords range API the reference's have-i-been-pwned plugin always asks. */
export const PWNED_RANGE_URL = "https://api.pwnedpasswords.com/range/";

/** A local range API on 127.0.0.1, so the every-plugin servers sign up without the network. */
export interface PwnedRangeStub {
  /** Base URL ending in `/range/`; the five-character prefix is appended. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the stub: every prefix answers the same two suffixes with count 0 (the shape of the real
 * API's padded answers), so no password is reported breached and the check still runs its
 * request, hash and comparison on both sides.
 */
export async function startPwnedRangeStub(): Promise<PwnedRangeStub> {
  const body = ["0018A45C4D1DEF81644B54AB7F969B88D65:0", "00D4F6E8FA6EECAD2A3AA415EEC418D38EC:0"].join("\r\n");
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/range/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Sends this process's `fetch` calls to the public range API to `stubURL` instead (the reference's
 * plugin has no option for another URL); every other request goes out unchanged.
 */
export function redirectPwnedRange(stubURL: string): void {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const target = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!target.startsWith(PWNED_RANGE_URL)) return realFetch(input, init);
    return realFetch(`${stubURL}${target.slice(PWNED_RANGE_URL.length)}`, init);
  };
}
