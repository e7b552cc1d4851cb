import { existsSync, readFileSync } from "node:fs";
import { passkey as referencePasskey } from "@better-auth/passkey";
import { passkey } from "@latchkey/passkey";
import { addVirtualAuthenticator, bundlePageScript, CHROMIUM_ARGS, CHROMIUM_PATH } from "@latchkey/test-support";
import { chromium, type Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { createPair } from "./support/instances.ts";
import { listen } from "./support/server.ts";

/**
 * The reference's `passkeyClient()` (`@better-auth/passkey/client` on `@simplewebauthn/browser`)
 * in Chromium, against Latchkey and, as the control, against the reference: the DevTools
 * protocol's virtual authenticator answers the WebAuthn calls. The same steps give the same
 * `{ data, error }` on both.
 */
let browser: Browser | undefined;
afterAll(() => browser?.close());

/** Runs the steps on one side; answers the recorded results with what differs by construction masked. */
async function run(side: "reference" | "latchkey", script: string): Promise<Record<string, unknown>> {
  const html = readFileSync(new URL("./passkey-page/page.html", import.meta.url), "utf8");
  const server = await listen();
  // localhost, not 127.0.0.1: an RP id must be a domain, and localhost is a secure context.
  const origin = server.origin.replace("127.0.0.1", "localhost");
  const pair = await createPair({ baseURL: origin, reference: { plugins: [referencePasskey()] }, latchkey: { plugins: [passkey()] } });
  server.use((request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/") return Promise.resolve(new Response(html, { headers: { "content-type": "text/html" } }));
    if (pathname === "/page.js") return Promise.resolve(new Response(script, { headers: { "content-type": "text/javascript" } }));
    return pair[side](request);
  });
  const page = await browser!.newPage();
  try {
    await addVirtualAuthenticator(page);
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => "signUp" in window);
    const call = (name: string, ...args: unknown[]) =>
      page.evaluate(([n, a]) => (window as unknown as Record<string, (...x: unknown[]) => Promise<void>>)[n as string]!(...(a as unknown[])), [name, args] as const);
    await call("signUp", "browser@example.com");
    await call("addPasskey");
    await call("signOut");
    await call("signInPasskey", false);
    await call("signOut");
    await call("signInPasskey", true);
    await call("session");
    const steps = await page.evaluate(() => (window as unknown as { steps: Record<string, unknown> }).steps);
    return JSON.parse(JSON.stringify(steps), (key, value: unknown) =>
      ["id", "userId", "token", "credentialID", "publicKey", "createdAt", "updatedAt", "expiresAt", "ipAddress", "userAgent"].includes(key) ? "<any>" : value,
    ) as Record<string, unknown>;
  } finally {
    await page.close();
    pair.close();
    await server.close();
  }
}

describe("passkey: the reference's passkeyClient() in Chromium", () => {
  // Setup inside the test: a missing browser must fail it, not skip it.
  it("registers and signs in (button and conditional UI) against Latchkey as against the reference", async () => {
    expect(existsSync(CHROMIUM_PATH), `${CHROMIUM_PATH} is missing: run \`node tools/scripts/ensure-chromium.mjs\``).toBe(true);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    const script = await bundlePageScript(new URL("./passkey-page/page.ts", import.meta.url).pathname);
    const reference = await run("reference", script);
    expect(reference).toMatchObject({
      addPasskey: { data: { name: "Chromium", transports: "internal" }, error: null },
      signIn: { data: { user: { email: "browser@example.com" } }, error: null },
      autoFill: { data: { user: { email: "browser@example.com" } }, error: null },
      session: { data: { user: { email: "browser@example.com" } } },
    });
    expect(await run("latchkey", script)).toEqual(reference);
  }, 120_000);
});
