import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "@latchkey/test-support";
import { oidcProvider } from "../../src/index.ts";
import { BASE, testInstance } from "../support/instance.ts";

const AUTH = `${BASE}/api/auth`;
const TIMEOUT_MS = 300;

/**
 * A bare IdP on 127.0.0.1: a real discovery document, and a token endpoint that misbehaves
 * as `tokenMode` says (never answers, or redirects elsewhere).
 */
let server: Server;
let issuer = "";
let tokenMode: "hang" | "redirect" = "hang";
const tokenRequests: string[] = [];
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    const path = (req.url ?? "").split("?")[0];
    if (path === "/.well-known/openid-configuration") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        }),
      );
      return;
    }
    if (path === "/token") {
      tokenRequests.push(tokenMode);
      if (tokenMode === "redirect") {
        res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" });
        res.end();
      }
      return; // "hang": the connection stays open and silent
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Starts a sign-in at the app and comes back to the callback with a code, as the IdP would. */
async function callbackWithCode(): Promise<{ response: Response; ms: number }> {
  const { auth } = testInstance({
    socialProviders: {
      idp: oidcProvider({
        id: "idp",
        issuer,
        clientId: "client",
        clientSecret: "client-secret",
        requestTimeout: TIMEOUT_MS,
      }),
    },
  });
  const browser = new Browser(BASE, auth.handler);
  const started = await browser.post(`${AUTH}/sign-in/social`, { provider: "idp", callbackURL: "/dashboard" });
  expect(started.status).toBe(200);
  const authorize = new URL(((await started.json()) as { url: string }).url);
  expect(authorize.origin).toBe(issuer);
  const state = authorize.searchParams.get("state")!;
  const start = performance.now();
  const response = await browser.send(`${AUTH}/callback/idp?code=code-from-idp&state=${state}`);
  return { response, ms: performance.now() - start };
}

describe("OAuth callback against a misbehaving token endpoint", () => {
  it("a token endpoint that never answers ends in the invalid_code redirect, within the bound", async () => {
    tokenMode = "hang";
    const { response, ms } = await callbackWithCode();
    // The reference's answer to a failed code exchange: a 302 to the error page, not a 500.
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${AUTH}/error?error=invalid_code`);
    expect(tokenRequests).toContain("hang");
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
    expect(ms).toBeLessThan(TIMEOUT_MS + 3_000);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("better-auth.session_token=") && !c.includes("Max-Age=0"))).toBe(false);
  });

  it("a token endpoint that redirects is not followed and ends in invalid_code", async () => {
    tokenMode = "redirect";
    const { response } = await callbackWithCode();
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${AUTH}/error?error=invalid_code`);
    expect(tokenRequests).toContain("redirect");
  });
});
