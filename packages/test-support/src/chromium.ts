import { build } from "esbuild";
import type { CDPSession, Page } from "playwright-core";

/** Debian's Chromium, which `tools/scripts/ensure-chromium.mjs` installs; driven with playwright-core. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Flags for a headless Chromium on this closed network: without the background-networking
 * flags it keeps dialling out, which the network refuses.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Bundles a test page's script for the browser (ESM, one file, in memory). `conditions` picks
 * package exports, e.g. `["@latchkey/source"]` to bundle workspace packages from their sources.
 */
export async function bundlePageScript(entry: string, conditions: string[] = []): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    conditions,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/**
 * Gives `page` a platform authenticator in the DevTools protocol's virtual environment
 * (CDP `WebAuthn` domain): CTAP2, resident keys, user verification, presence confirmed
 * without a person. Returns the CDP session and the authenticator's id, to read its credentials.
 */
export async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
